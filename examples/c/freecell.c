/* Microsoft FreeCell deals (classic dialect), written from SPEC.md's algorithm.
 *
 *   freecell [-f rows|line] [-H] N     print deal N
 *   freecell [-f rows|line] [-H]       read deal numbers from stdin, one per line
 *
 * rows: 7 lines of cards (the last of 4); line: the canonical line.  -H: a "Game #N" header.
 * In stream mode the output is written whenever the input runs dry, so a caller that writes
 * a block of numbers gets the block's boards without waiting for more input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";
static int as_rows = 1, header = 0;
static char out[1 << 20];
static size_t used = 0;

static void flush_out(void) {
    size_t done = 0;
    while (done < used) {
        ssize_t w = write(1, out + done, used - done);
        if (w <= 0) exit(1);
        done += (size_t)w;
    }
    used = 0;
}

static void deal(uint32_t n) {
    uint8_t deck[52];
    uint32_t state = n;
    if (used > sizeof out - 256) flush_out();
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    if (header) used += (size_t)sprintf(out + used, "Game #%u\n", n);
    for (int left = 52, p = 0; left > 0; left--, p++) {
        state = (214013u * state + 2531011u) & 0x7fffffffu;
        int k = (int)((state >> 16) % (uint32_t)left);
        uint8_t card = deck[k];
        deck[k] = deck[left - 1];
        out[used++] = RANKS[card / 4];
        out[used++] = SUITS[card % 4];
        int end_of_row = as_rows && (p % 8 == 7 || p == 51);
        out[used++] = (end_of_row || p == 51) ? '\n' : ' ';
    }
}

static int parse(const char *s, uint32_t *n) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    while (*end == '\r' || *end == ' ') end++;
    if (end == s || *end || v < 1 || v > 0x7fffffffull) return 0;
    *n = (uint32_t)v;
    return 1;
}

int main(int argc, char **argv) {
    int opt;
    uint32_t n;
    while ((opt = getopt(argc, argv, "f:H")) != -1) {
        if (opt == 'f' && !strcmp(optarg, "line")) as_rows = 0;
        else if (opt == 'H') header = 1;
        else if (!(opt == 'f' && !strcmp(optarg, "rows"))) {
            fprintf(stderr, "usage: freecell [-f rows|line] [-H] [N]\n");
            return 2;
        }
    }
    if (optind < argc) {
        if (!parse(argv[optind], &n)) {
            fprintf(stderr, "not a deal number (1 ... 2147483647): %s\n", argv[optind]);
            return 2;
        }
        deal(n);
        flush_out();
        return 0;
    }
    static char in[1 << 16];
    size_t have = 0;
    for (;;) {
        ssize_t r = read(0, in + have, sizeof in - 1 - have);
        if (r <= 0) break;
        have += (size_t)r;
        size_t start = 0;
        for (size_t i = 0; i < have; i++) {
            if (in[i] != '\n') continue;
            in[i] = 0;
            if (!parse(in + start, &n)) {
                fprintf(stderr, "not a deal number (1 ... 2147483647): %s\n", in + start);
                return 2;
            }
            deal(n);
            start = i + 1;
        }
        memmove(in, in + start, have - start);
        have -= start;
        flush_out();
    }
    flush_out();
    return 0;
}
