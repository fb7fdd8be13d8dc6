/* fcdigest: block digests of Microsoft FreeCell deals, written from SPEC.md alone.
 *
 * It shares no code with the Python reference: it is the second, independent implementation
 * that confirms the whole-domain digest tables before they are written.
 *
 *   cc -O2 -o fcdigest fcdigest.c -lcrypto
 *   ./fcdigest fcpro 1 8589934591 1000000      # start<TAB>stop<TAB>sha256, one row per grid block
 *
 * Rows lie on the grid of BLOCK: deals (k-1)*BLOCK+1 ... k*BLOCK; the first and last row may be
 * partial.  A row's sha256 is the SHA-256 of the canonical lines of its deals (SPEC.md).
 */
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DECK = 52, LINE = 3 * DECK, LINES_PER_UPDATE = 1024 };

static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";
static const long long CLASSIC_LAST = 2147483647LL, FCPRO_LAST = 8589934591LL;

/* The 52 random numbers of deal n (SPEC.md, "Dialects": classic below 2^31, fcpro above). */
static void random_numbers(long long n, uint32_t r[DECK]) {
    if (n < 2147483648LL) {
        uint32_t s = (uint32_t)n;
        for (int i = 0; i < DECK; i++) {
            s = (s * 214013u + 2531011u) & 0x7fffffffu;
            r[i] = s >> 16;
        }
    } else if (n < 4294967296LL) {
        uint32_t s = (uint32_t)n;
        for (int i = 0; i < DECK; i++) {
            s = s * 214013u + 2531011u; /* mod 2^32 by unsigned overflow */
            r[i] = ((s >> 16) & 0x7fffu) | 0x8000u;
        }
    } else {
        uint32_t s = (uint32_t)(n - 4294967296LL);
        for (int i = 0; i < DECK; i++) {
            s = s * 214013u + 2531011u;
            r[i] = ((s >> 16) & 0xffffu) + 1u;
        }
    }
}

static void canonical_line(long long n, char out[LINE]) {
    uint32_t r[DECK];
    uint8_t deck[DECK];
    random_numbers(n, r);
    for (int c = 0; c < DECK; c++) deck[c] = (uint8_t)c;
    for (int left = DECK, i = 0; left > 0; left--, i++) {
        int k = (int)(r[i] % (uint32_t)left);
        uint8_t card = deck[k];
        deck[k] = deck[left - 1];
        out[3 * i] = RANKS[card / 4];
        out[3 * i + 1] = SUITS[card % 4];
        out[3 * i + 2] = ' ';
    }
    out[LINE - 1] = '\n';
}

static int parse(const char *text, long long *value) {
    char *end;
    *value = strtoll(text, &end, 10);
    return *text != '\0' && *end == '\0';
}

int main(int argc, char **argv) {
    long long first, last, block, limit;
    if (argc != 5 || !parse(argv[2], &first) || !parse(argv[3], &last) || !parse(argv[4], &block)) {
        fprintf(stderr, "usage: %s classic|fcpro FIRST LAST BLOCK\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "classic") == 0) {
        limit = CLASSIC_LAST;
    } else if (strcmp(argv[1], "fcpro") == 0) {
        limit = FCPRO_LAST;
    } else {
        fprintf(stderr, "%s: unknown dialect %s (classic or fcpro)\n", argv[0], argv[1]);
        return 2;
    }
    if (first < 1 || last < first || last > limit || block < 1) {
        fprintf(stderr, "%s: bad request %s %s-%s block %s\n", argv[0], argv[1], argv[2], argv[3], argv[4]);
        return 2;
    }
    static char buffer[LINE * LINES_PER_UPDATE];
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    for (long long start = first; start <= last;) {
        long long stop = ((start - 1) / block + 1) * block;
        if (stop > last) stop = last;
        EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
        size_t used = 0;
        for (long long n = start; n <= stop; n++) {
            canonical_line(n, buffer + used);
            used += LINE;
            if (used == sizeof buffer) {
                EVP_DigestUpdate(ctx, buffer, used);
                used = 0;
            }
        }
        EVP_DigestUpdate(ctx, buffer, used);
        unsigned char digest[32];
        unsigned int size = 0;
        EVP_DigestFinal_ex(ctx, digest, &size);
        printf("%lld\t%lld\t", start, stop);
        for (unsigned int i = 0; i < size; i++) printf("%02x", digest[i]);
        printf("\n");
        if (fflush(stdout) != 0) return 1;
        start = stop + 1;
    }
    EVP_MD_CTX_free(ctx);
    return 0;
}
