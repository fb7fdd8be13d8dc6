/* harness._cardread: the steady state of harness.shapes' quick readers, in one pass of C; and
 * `fitting`, the check of harness.fixed_layout's boards taken in bulk.
 *
 * `line(items, how, cls, fields, types, table, distinct)` writes the canonical line of a
 * board whose cards a learnt kind names (harness/shapes.py, `_Kind`), or returns None where any
 * card is not as that kind vouches for: the Python reader then reads the board as it would have
 * without this module.  It decides nothing a kind has not decided; it reads what a kind reads,
 * checks what a kind checks, by identity, and looks each key up in the kind's own table.
 *
 *   items     rows (7 groups of 8, 8, 8, 8, 8, 8, 4), columns (8 groups of 7, 7, 7, 7, 6, 6, 6, 6)
 *             or 52 cards: an exact list or tuple, its groups all exact lists or all exact tuples
 *   how       BY_IDENTITY: a card's key is its id (the kind's cards cannot change);
 *             BY_ATTRIBUTES / BY_ITEMS / BY_POSITION: its key is its fields' values (attributes,
 *             a dict's items, a tuple's items)
 *   cls       every card's class IS this (BY_ITEMS: dict; BY_POSITION: a subclass of tuple;
 *             BY_IDENTITY: not used)
 *   fields    the field names read, in the key's order (BY_ITEMS: a dict's every key, no more;
 *             BY_POSITION: a tuple's every field, no more); more than MAX_FIELDS: None
 *   types     each field's value's class IS the type at its place
 *   table     BY_IDENTITY: id -> the card's name (2 bytes); else one level of dicts per field:
 *             table[value of field 0][value of field 1]... -> the card's name
 *   distinct  the 52 names must differ (else None)
 *
 * An exception that is an Exception (a property that raised, a missing field) is None, as the
 * Python reader's `except Exception` is; any other (KeyboardInterrupt, SystemExit) goes on up.
 * The caller's promise: a table never changes the name it gives a key (names are remembered).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

enum { BY_IDENTITY = 0, BY_ATTRIBUTES = 1, BY_ITEMS = 2, BY_POSITION = 3 };

#define DECK 52
#define LINE (3 * DECK)
#define MAX_FIELDS 8

static const Py_ssize_t ROW_SHAPE[] = {8, 8, 8, 8, 8, 8, 4};
static const Py_ssize_t COLUMN_SHAPE[] = {7, 7, 7, 7, 6, 6, 6, 6};

/* 1 with cards[p] the card at row-order place p of `items` (borrowed); 0 where they are no board of
 * 52 cards in rows, columns or one group. */
static int
cards_in_row_order(PyObject *items, PyObject **cards)
{
    int is_list = PyList_CheckExact(items);
    if (!is_list && !PyTuple_CheckExact(items)) {
        return 0;
    }
    Py_ssize_t count = Py_SIZE(items);
    PyObject **held = is_list ? ((PyListObject *)items)->ob_item : ((PyTupleObject *)items)->ob_item;
    if (count == DECK) {
        PyObject *first = held[0];
        if (PyList_CheckExact(first) || PyTuple_CheckExact(first)) {
            return 0; /* groups of another shape: the Python reader says what they are */
        }
        memcpy(cards, held, DECK * sizeof(PyObject *));
        return 1;
    }
    const Py_ssize_t *shape;
    if (count == 7) {
        shape = ROW_SHAPE;
    }
    else if (count == 8) {
        shape = COLUMN_SHAPE;
    }
    else {
        return 0;
    }
    PyTypeObject *group_type = Py_TYPE(held[0]);
    if (group_type != &PyList_Type && group_type != &PyTuple_Type) {
        return 0;
    }
    for (Py_ssize_t g = 0; g < count; g++) {
        PyObject *group = held[g];
        if (Py_TYPE(group) != group_type || Py_SIZE(group) != shape[g]) {
            return 0;
        }
        PyObject **in = group_type == &PyList_Type ? ((PyListObject *)group)->ob_item
                                                   : ((PyTupleObject *)group)->ob_item;
        for (Py_ssize_t k = 0; k < shape[g]; k++) {
            cards[count == 7 ? g * 8 + k : k * 8 + g] = in[k];
        }
    }
    return 1;
}

/* None for an Exception (the Python reader's `except Exception`); NULL to raise anything else. */
static PyObject *
unread(void)
{
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_Exception)) {
            return NULL;
        }
        PyErr_Clear();
    }
    Py_RETURN_NONE;
}

/* Whether two exact str are the same text (no code of a dealer's runs to compare them). */
static int
same_text(PyObject *a, PyObject *b)
{
    return a == b || (PyUnicode_GET_LENGTH(a) == PyUnicode_GET_LENGTH(b) && PyUnicode_Compare(a, b) == 0);
}

/* Whether values of this type can run no code of Python's as they are hashed and compared (then
 * nothing can free a value a card holds while it is looked up: no reference need be taken). */
static int
inert(PyObject *type)
{
    return type == (PyObject *)&PyLong_Type || type == (PyObject *)&PyUnicode_Type ||
           type == (PyObject *)&PyFloat_Type || type == (PyObject *)&PyBytes_Type ||
           type == (PyObject *)&PyBool_Type || type == (PyObject *)Py_TYPE(Py_None);
}

/* A card's field values in `values`, each of the class at its place in `types`, new references
 * unless `borrow` (a dict's items, all of inert types; a tuple's items, which the tuple holds while
 * the card is held): 1 if so; 0 where a check fails or reading raised (an error may be set). */
static int
fields_of(PyObject *card, int how, PyObject *cls, PyObject *const *fields, PyObject *const *types,
          Py_ssize_t n_fields, int borrow, PyObject **values)
{
    if ((PyObject *)Py_TYPE(card) != cls) {
        return 0;
    }
    Py_ssize_t f = 0;
    if (how == BY_POSITION) {
        if (PyTuple_GET_SIZE(card) != n_fields) {
            return 0;
        }
        for (f = 0; f < n_fields; f++) {
            values[f] = PyTuple_GET_ITEM(card, f);
            if ((PyObject *)Py_TYPE(values[f]) != types[f]) {
                return 0;
            }
        }
        return 1;
    }
    if (how == BY_ITEMS) {
        /* A dict of exactly these keys, each an exact str: its items are its fields. */
        if (PyDict_GET_SIZE(card) != n_fields) {
            return 0;
        }
        for (f = 0; f < n_fields; f++) {
            values[f] = NULL;
        }
        Py_ssize_t at = 0;
        PyObject *name, *value;
        while (PyDict_Next(card, &at, &name, &value)) {
            if (!PyUnicode_CheckExact(name)) {
                break;
            }
            for (f = 0; f < n_fields && !same_text(name, fields[f]); f++) {
            }
            if (f == n_fields || values[f] != NULL || (PyObject *)Py_TYPE(value) != types[f]) {
                break;
            }
            if (!borrow) {
                Py_INCREF(value);
            }
            values[f] = value;
        }
        for (f = 0; f < n_fields && values[f] != NULL; f++) {
        }
        if (f == n_fields) {
            return 1;
        }
        for (f = 0; f < n_fields && !borrow; f++) {
            Py_XDECREF(values[f]);
        }
        return 0;
    }
    for (f = 0; f < n_fields; f++) {
        PyObject *value = PyObject_GetAttr(card, fields[f]);
        if (value == NULL || (PyObject *)Py_TYPE(value) != types[f]) {
            Py_XDECREF(value);
            while (f-- > 0) {
                Py_DECREF(values[f]);
            }
            return 0;
        }
        values[f] = value;
    }
    return 1;
}

/* The name the table gives these values (one level of dicts per value), a new reference; NULL
 * where it gives none.  Each level is held while the next is looked up, unless the values are all
 * inert (no code of Python's runs in those look-ups, to change the table). */
static PyObject *
name_of(PyObject *table, PyObject **values, Py_ssize_t n_values, int borrow)
{
    PyObject *level = table;
    if (!borrow) {
        Py_INCREF(level);
    }
    for (Py_ssize_t f = 0; f < n_values; f++) {
        PyObject *next = PyDict_GetItemWithError(level, values[f]);
        if (!borrow) {
            Py_XINCREF(next);
            Py_DECREF(level);
        }
        if (next == NULL) {
            return NULL;
        }
        level = next;
        if (f < n_values - 1 && !PyDict_CheckExact(level)) {
            if (!borrow) {
                Py_DECREF(level);
            }
            return NULL;
        }
    }
    if (borrow) {
        Py_INCREF(level);
    }
    return level;
}

/* The names last looked up for values of inert types, one or two fields, by the table and the
 * values' identities.  Sound because each entry holds the objects it is keyed by (no other object
 * can take their addresses while it is there), inert values cannot change, and a table never
 * changes the name it gives a key (harness/shapes.py: a kind's `named` only grows, and is
 * replaced by a new table, never emptied; a `decided` is made whole, then replaced). */
#define MEMO_SIZE 4096 /* a power of 2 */

typedef struct {
    PyObject *table, *first, *second, *name; /* held; second is NULL for one field */
} Memo;

static Memo memo[MEMO_SIZE];

static Memo *
memo_slot(PyObject *table, PyObject *first, PyObject *second)
{
    uintptr_t h = ((uintptr_t)table >> 4) * 0x9E3779B1u + ((uintptr_t)first >> 4) * 31u + ((uintptr_t)second >> 4);
    return &memo[(h ^ (h >> 13)) & (MEMO_SIZE - 1)];
}

/* `name_of`, remembered: a new reference, or NULL where the table gives none. */
static PyObject *
memo_name_of(PyObject *table, PyObject **values, Py_ssize_t n_values)
{
    PyObject *second = n_values == 2 ? values[1] : NULL;
    Memo *slot = memo_slot(table, values[0], second);
    if (slot->table == table && slot->first == values[0] && slot->second == second) {
        Py_INCREF(slot->name);
        return slot->name;
    }
    PyObject *name = name_of(table, values, n_values, 1);
    if (name == NULL) {
        return NULL;
    }
    Memo old = *slot;
    Py_INCREF(table);
    Py_INCREF(values[0]);
    Py_XINCREF(second);
    Py_INCREF(name);
    *slot = (Memo){table, values[0], second, name};
    Py_XDECREF(old.table); /* none of these runs code of Python's: tables of inert keys, inert values, bytes */
    Py_XDECREF(old.first);
    Py_XDECREF(old.second);
    Py_XDECREF(old.name);
    return name;
}

static PyObject *
cardread_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "line() takes 7 arguments");
        return NULL;
    }
    PyObject *items = args[0], *cls = args[2], *fields = args[3], *types = args[4], *table = args[5];
    int how = (int)PyLong_AsLong(args[1]);
    int distinct = PyObject_IsTrue(args[6]);
    if (PyErr_Occurred() || distinct < 0) {
        return NULL;
    }
    if (!PyDict_CheckExact(table) || !PyTuple_CheckExact(fields) || !PyTuple_CheckExact(types) ||
        PyTuple_GET_SIZE(fields) != PyTuple_GET_SIZE(types) ||
        (how == BY_IDENTITY) != (PyTuple_GET_SIZE(fields) == 0) || how < BY_IDENTITY || how > BY_POSITION ||
        (how == BY_ITEMS && (PyObject *)&PyDict_Type != cls) ||
        (how == BY_POSITION && !(PyType_Check(cls) && PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)))) {
        PyErr_SetString(PyExc_TypeError, "line(): not a kind's way of reading");
        return NULL;
    }
    if (PyTuple_GET_SIZE(fields) > MAX_FIELDS) {
        Py_RETURN_NONE; /* a kind of many fields: read in Python */
    }
    Py_ssize_t n_fields = PyTuple_GET_SIZE(fields);
    PyObject *const *field_names = ((PyTupleObject *)fields)->ob_item;
    PyObject *const *field_types = ((PyTupleObject *)types)->ob_item;
    for (Py_ssize_t f = 0; f < n_fields; f++) {
        if (!PyUnicode_CheckExact(field_names[f])) {
            Py_RETURN_NONE; /* a name of a class's own making (a str subclass in __slots__): read in Python */
        }
    }
    PyObject *cards[DECK];
    if (!cards_in_row_order(items, cards)) {
        Py_RETURN_NONE;
    }
    PyObject *result = PyBytes_FromStringAndSize(NULL, LINE);
    if (result == NULL) {
        return NULL;
    }
    /* The cards stay alive while they are read: a field's getter may empty the lists that hold them. */
    for (int p = 0; p < DECK; p++) {
        Py_INCREF(cards[p]);
    }
    char *out = PyBytes_AS_STRING(result);
    unsigned char seen[(1 << 16) / 8];
    if (distinct) {
        memset(seen, 0, sizeof seen);
    }
    int all_inert = how != BY_IDENTITY;
    for (Py_ssize_t f = 0; f < n_fields; f++) {
        all_inert = all_inert && inert(field_types[f]);
    }
    int borrow = (all_inert && how == BY_ITEMS) || how == BY_POSITION, remembered = all_inert && n_fields <= 2;
    PyObject *values[MAX_FIELDS];
    int p;
    for (p = 0; p < DECK; p++) {
        PyObject *name;
        if (how == BY_IDENTITY) {
            PyObject *key = PyLong_FromVoidPtr(cards[p]);
            if (key == NULL) {
                break;
            }
            name = PyDict_GetItemWithError(table, key);
            Py_XINCREF(name);
            Py_DECREF(key);
        }
        else {
            if (!fields_of(cards[p], how, cls, field_names, field_types, n_fields, borrow, values)) {
                break;
            }
            name = remembered ? memo_name_of(table, values, n_fields) : name_of(table, values, n_fields, all_inert);
            for (Py_ssize_t f = 0; f < n_fields && !borrow; f++) {
                Py_DECREF(values[f]);
            }
        }
        if (name == NULL) {
            break;
        }
        int named = PyBytes_CheckExact(name) && PyBytes_GET_SIZE(name) == 2;
        const unsigned char *two = named ? (const unsigned char *)PyBytes_AS_STRING(name) : NULL;
        unsigned code = named ? (unsigned)two[0] << 8 | two[1] : 0;
        if (named) {
            out[3 * p] = (char)two[0];
            out[3 * p + 1] = (char)two[1];
            out[3 * p + 2] = p == DECK - 1 ? '\n' : ' ';
        }
        Py_DECREF(name);
        if (!named) {
            break;
        }
        if (distinct) {
            if (seen[code >> 3] & (1u << (code & 7))) {
                break;
            }
            seen[code >> 3] |= (unsigned char)(1u << (code & 7));
        }
    }
    for (int q = 0; q < DECK; q++) {
        Py_DECREF(cards[q]);
    }
    if (p < DECK) {
        Py_DECREF(result);
        return unread();
    }
    return result;
}

/* fitting(data, width, want, board) -> how many whole boards of `width` bytes at the start of `data`
 * fit a fixed layout (harness/fixed_layout.py): at each place p of a board, where want[p] is 0 the
 * byte is board[p]; else it is of a kind want[p] names (bits: WANT_RANK an upper-case rank letter,
 * WANT_SUIT an upper-case suit letter, WANT_DIGIT an ASCII digit).  A byte's kinds are told by its two
 * nibbles (each kind is a union of nibble rectangles), with SSSE3 sixteen bytes at a time where the
 * CPU has it, else one at a time: the same answer either way. */
enum { WANT_RANK = 0x07, WANT_SUIT = 0x18, WANT_DIGIT = 0x20 };

/* Bit 0: 2-9 (high nibble 3); bit 1: A J K (4); bit 2: Q T (5); bit 3: C D H (4); bit 4: S (5); bit 5: 0-9 (3). */
static const unsigned char LOW_NIBBLE[16] = {0x20, 0x26, 0x21, 0x39, 0x2D, 0x21, 0x21, 0x21,
                                             0x29, 0x21, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
static const unsigned char HIGH_NIBBLE[16] = {0, 0, 0, 0x21, 0x0A, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

static inline unsigned char
kinds_of(unsigned char c)
{
    return LOW_NIBBLE[c & 15] & HIGH_NIBBLE[c >> 4];
}

static inline int
byte_fits(unsigned char c, unsigned char want, unsigned char expected)
{
    return want ? (kinds_of(c) & want) != 0 : c == expected;
}

static Py_ssize_t
fitting_bytes(const unsigned char *d, Py_ssize_t boards, Py_ssize_t width, const unsigned char *want,
              const unsigned char *board)
{
    Py_ssize_t fit = 0;
    for (; fit < boards; fit++, d += width) {
        int ok = 1;
        for (Py_ssize_t p = 0; p < width; p++) {
            ok &= byte_fits(d[p], want[p], board[p]);
        }
        if (!ok) {
            break;
        }
    }
    return fit;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_VECTOR_FIT 1

__attribute__((target("ssse3"))) static Py_ssize_t
fitting_vectors(const unsigned char *d, Py_ssize_t boards, Py_ssize_t width, const unsigned char *want,
                const unsigned char *board)
{
    const __m128i low_table = _mm_loadu_si128((const __m128i *)LOW_NIBBLE);
    const __m128i high_table = _mm_loadu_si128((const __m128i *)HIGH_NIBBLE);
    const __m128i nibble = _mm_set1_epi8(0x0F), zero = _mm_setzero_si128();
    Py_ssize_t blocks = width / 16, fit = 0;
    for (; fit < boards; fit++, d += width) {
        int ok = 1;
        for (Py_ssize_t b = 0; b < blocks && ok; b++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(d + 16 * b));
            __m128i w = _mm_loadu_si128((const __m128i *)(want + 16 * b));
            __m128i e = _mm_loadu_si128((const __m128i *)(board + 16 * b));
            __m128i kinds = _mm_and_si128(_mm_shuffle_epi8(low_table, _mm_and_si128(v, nibble)),
                                          _mm_shuffle_epi8(high_table, _mm_and_si128(_mm_srli_epi16(v, 4), nibble)));
            __m128i of_kind = _mm_xor_si128(_mm_cmpeq_epi8(_mm_and_si128(kinds, w), zero), _mm_set1_epi8(-1));
            __m128i fixed = _mm_and_si128(_mm_cmpeq_epi8(w, zero), _mm_cmpeq_epi8(v, e));
            ok = _mm_movemask_epi8(_mm_or_si128(of_kind, fixed)) == 0xFFFF;
        }
        for (Py_ssize_t p = 16 * blocks; p < width && ok; p++) {
            ok = byte_fits(d[p], want[p], board[p]);
        }
        if (!ok) {
            break;
        }
    }
    return fit;
}

/* Boards in groups: a group is as many boards as make a multiple of 32 bytes (lcm(width, 32) bytes), checked
 * against the layout tiled over a group, 32 bytes at a time with AVX2 and no branch but one a group.  Whole
 * groups that fit are counted; the rest (from the first group that does not fit all through) is left to
 * fitting_vectors, which tells the very board that does not. */
enum { MAX_PERIOD = 1 << 15 };

static Py_ssize_t
group_period(Py_ssize_t width)
{
    Py_ssize_t a = width, b = 32;
    while (b) {
        Py_ssize_t t = a % b;
        a = b;
        b = t;
    }
    return width / a * 32;
}

__attribute__((target("avx2"))) static Py_ssize_t
fitting_groups(const unsigned char *d, Py_ssize_t boards, Py_ssize_t width, const unsigned char *want,
               const unsigned char *board, Py_ssize_t period)
{
    static _Thread_local unsigned char tiled_want[MAX_PERIOD], tiled_board[MAX_PERIOD];
    for (Py_ssize_t p = 0; p < period; p += width) {
        memcpy(tiled_want + p, want, (size_t)width);
        memcpy(tiled_board + p, board, (size_t)width);
    }
    const __m256i low_table = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)LOW_NIBBLE));
    const __m256i high_table = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)HIGH_NIBBLE));
    const __m256i nibble = _mm256_set1_epi8(0x0F), zero = _mm256_setzero_si256();
    Py_ssize_t per_group = period / width, groups = boards / per_group, g = 0;
    for (; g < groups; g++, d += period) {
        __m256i bad = zero;
        for (Py_ssize_t b = 0; b < period; b += 32) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(d + b));
            __m256i w = _mm256_loadu_si256((const __m256i *)(tiled_want + b));
            __m256i e = _mm256_loadu_si256((const __m256i *)(tiled_board + b));
            __m256i kinds = _mm256_and_si256(
                _mm256_shuffle_epi8(low_table, _mm256_and_si256(v, nibble)),
                _mm256_shuffle_epi8(high_table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
            __m256i fixed_place = _mm256_cmpeq_epi8(w, zero);
            /* bad: a byte of no kind wanted where one is wanted, or another byte where the board's own is */
            __m256i no_kind = _mm256_andnot_si256(fixed_place, _mm256_cmpeq_epi8(_mm256_and_si256(kinds, w), zero));
            __m256i other = _mm256_andnot_si256(_mm256_cmpeq_epi8(v, e), fixed_place);
            bad = _mm256_or_si256(bad, _mm256_or_si256(no_kind, other));
        }
        if (!_mm256_testz_si256(bad, bad)) {
            break;
        }
    }
    return g * per_group;
}
#endif

static PyObject *
cardread_fitting(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer data, want, board;
    Py_ssize_t width, fit = 0;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "fitting(data, width, want, board)");
        return NULL;
    }
    width = PyLong_AsSsize_t(args[1]);
    if (width == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (PyObject_GetBuffer(args[2], &want, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&data);
        return NULL;
    }
    if (PyObject_GetBuffer(args[3], &board, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&data);
        PyBuffer_Release(&want);
        return NULL;
    }
    if (width < 1 || want.len != width || board.len != width) {
        PyErr_SetString(PyExc_ValueError, "fitting: a width of at least 1, want and board of width bytes");
    }
    else {
        const unsigned char *d = data.buf;
        Py_ssize_t boards = data.len / width;
        Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_VECTOR_FIT
        if (__builtin_cpu_supports("ssse3")) {
            Py_ssize_t period = group_period(width);
            if (period <= MAX_PERIOD && __builtin_cpu_supports("avx2")) {
                fit = fitting_groups(d, boards, width, want.buf, board.buf, period);
            }
            fit += fitting_vectors(d + fit * width, boards - fit, width, want.buf, board.buf);
        }
        else
#endif
        {
            fit = fitting_bytes(d, boards, width, want.buf, board.buf);
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&data);
    PyBuffer_Release(&want);
    PyBuffer_Release(&board);
    return PyErr_Occurred() ? NULL : PyLong_FromSsize_t(fit);
}

static PyMethodDef cardread_methods[] = {
    {"line", (PyCFunction)(void (*)(void))cardread_line, METH_FASTCALL,
     "line(items, how, cls, fields, types, table, distinct) -> the board's canonical line, or None"},
    {"fitting", (PyCFunction)(void (*)(void))cardread_fitting, METH_FASTCALL,
     "fitting(data, width, want, board) -> the whole boards at the start of data that fit"},
    {NULL, NULL, 0, NULL},
};

static int
cardread_exec(PyObject *module)
{
    if (PyModule_AddIntConstant(module, "BY_IDENTITY", BY_IDENTITY) < 0 ||
        PyModule_AddIntConstant(module, "BY_ATTRIBUTES", BY_ATTRIBUTES) < 0 ||
        PyModule_AddIntConstant(module, "BY_ITEMS", BY_ITEMS) < 0 ||
        PyModule_AddIntConstant(module, "BY_POSITION", BY_POSITION) < 0 ||
        PyModule_AddIntConstant(module, "WANT_RANK", WANT_RANK) < 0 ||
        PyModule_AddIntConstant(module, "WANT_SUIT", WANT_SUIT) < 0 ||
        PyModule_AddIntConstant(module, "WANT_DIGIT", WANT_DIGIT) < 0) {
        return -1;
    }
    return 0;
}

static PyModuleDef_Slot cardread_slots[] = {
    {Py_mod_exec, cardread_exec},
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED}, /* the memo is one per process */
#endif
    {0, NULL},
};

static struct PyModuleDef cardread_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "harness._cardread",
    .m_doc = "The steady state of harness.shapes' quick readers, in one pass of C.",
    .m_size = 0,
    .m_methods = cardread_methods,
    .m_slots = cardread_slots,
};

PyMODINIT_FUNC
PyInit__cardread(void)
{
    return PyModuleDef_Init(&cardread_module);
}
