/* reference._shuffle: reference/bulk.py's `_shuffle_into` in one pass of C, deal after deal.
 *
 * `shuffle_into(seeds, out_mask, out_or, out_add, deck, out)` deals every seed: out[i][p] = the deck
 * value of the p-th card dealt from seeds[i], as the NumPy loop of `_shuffle_into` does: the state kept
 * modulo 2^32 (its low 31 bits are the state modulo 2^31, and out_mask drops the rest), the rule's
 * r = (((state >> 16) & out_mask) | out_or) + out_add, below 2^17, and the pick r mod left, here by a
 * multiplication (exact below 2^26 for every left up to 52) instead of the NumPy path's table, whose
 * 3.4 MB read at random cost a cache miss a step.
 *
 *   seeds  uint32, contiguous, n of them
 *   deck   52 values of 1 or 2 bytes, contiguous: what stands for each card (an index, two letters)
 *   out    n rows of 52 values of the deck's size, any strides (the letters of canonical lines are
 *          every third byte pair of a line)
 *
 * A buffer of another shape or size is a ValueError: the NumPy loop is then the one to use.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define DECK_SIZE 52
#define MULTIPLIER 214013u
#define INCREMENT 2531011u

static PyObject *shuffle_into(PyObject *self, PyObject *args)
{
    PyObject *seeds_obj, *deck_obj, *out_obj;
    Py_buffer seeds, deck, out;
    unsigned long out_mask, out_or, out_add;
    uint64_t inverse[DECK_SIZE + 1];
    PyObject *result = NULL;
    Py_ssize_t n, i, row, column;
    int size, left;

    (void)self;
    if (!PyArg_ParseTuple(args, "OkkkOO", &seeds_obj, &out_mask, &out_or, &out_add, &deck_obj, &out_obj))
        return NULL;
    if (out_mask > 0xFFFF || out_or > 0xFFFF || out_add > 0xFFFF) {
        PyErr_SetString(PyExc_ValueError, "shuffle_into: a rule whose r is not below 2^17");
        return NULL;
    }
    for (left = 1; left <= DECK_SIZE; left++)
        inverse[left] = (((uint64_t)1 << 32) / (uint64_t)left) + 1;
    if (PyObject_GetBuffer(seeds_obj, &seeds, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(deck_obj, &deck, PyBUF_C_CONTIGUOUS) < 0)
        goto release_seeds;
    if (PyObject_GetBuffer(out_obj, &out, PyBUF_STRIDES | PyBUF_WRITABLE) < 0)
        goto release_deck;
    size = (int)deck.itemsize;
    n = seeds.itemsize == 4 ? seeds.len / 4 : -1;
    if (n < 0 || (size != 1 && size != 2) ||
        deck.len != DECK_SIZE * size || out.ndim != 2 || out.itemsize != size || out.shape[0] != n ||
        out.shape[1] != DECK_SIZE) {
        PyErr_SetString(PyExc_ValueError, "shuffle_into: buffers of other shapes or sizes");
        goto release_out;
    }
    row = out.strides[0];
    column = out.strides[1];
    Py_BEGIN_ALLOW_THREADS
    for (i = 0; i < n; i++) {
        uint32_t state = ((const uint32_t *)seeds.buf)[i];
        uint16_t cards[DECK_SIZE];
        char *to = (char *)out.buf + i * row;
        uint32_t r, k;
        for (k = 0; k < DECK_SIZE; k++)
            cards[k] = size == 1 ? ((const uint8_t *)deck.buf)[k] : ((const uint16_t *)deck.buf)[k];
        for (left = DECK_SIZE; left > 0; left--, to += column) {
            state = state * MULTIPLIER + INCREMENT;
            r = (((state >> 16) & (uint32_t)out_mask) | (uint32_t)out_or) + (uint32_t)out_add;
            k = r - (uint32_t)(((uint64_t)r * inverse[left]) >> 32) * (uint32_t)left;
            if (size == 1)
                *(uint8_t *)to = (uint8_t)cards[k];
            else
                memcpy(to, &cards[k], 2);
            cards[k] = cards[left - 1];
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
release_out:
    PyBuffer_Release(&out);
release_deck:
    PyBuffer_Release(&deck);
release_seeds:
    PyBuffer_Release(&seeds);
    return result;
}

static PyMethodDef methods[] = {
    {"shuffle_into", shuffle_into, METH_VARARGS, "Deal every seed into out (reference/bulk.py, _shuffle_into)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "reference._shuffle", NULL, -1, methods};

PyMODINIT_FUNC PyInit__shuffle(void)
{
    return PyModule_Create(&module);
}
