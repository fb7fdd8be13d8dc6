/* A plain C loop: classic deals FIRST … LAST as canonical lines on stdout (the benchmark's yardstick).
 *
 *   cc -O2 -o loop loop.c && ./loop 1 1000000 | sha256sum
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { DECK = 52, LINE = 3 * DECK, LINES_PER_WRITE = 4096 };

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s FIRST LAST (classic deals, 1 <= FIRST <= LAST <= 2147483647)\n", argv[0]);
        return 2;
    }
    long long first = atoll(argv[1]), last = atoll(argv[2]);
    if (first < 1 || last < first || last > 2147483647LL) {
        fprintf(stderr, "%s: bad range %s-%s\n", argv[0], argv[1], argv[2]);
        return 2;
    }
    static const char ranks[] = "A23456789TJQK", suits[] = "CDHS";
    char names[DECK][2];
    for (int c = 0; c < DECK; c++) {
        names[c][0] = ranks[c / 4];
        names[c][1] = suits[c % 4];
    }
    static char buffer[LINE * LINES_PER_WRITE];
    size_t used = 0;
    for (long long n = first; n <= last; n++) {
        uint32_t state = (uint32_t)n;
        uint8_t deck[DECK];
        for (int c = 0; c < DECK; c++) deck[c] = (uint8_t)c;
        char *out = buffer + used;
        for (int left = DECK; left > 0; left--) {
            state = (214013u * state + 2531011u) & 0x7fffffffu;
            int k = (int)((state >> 16) % (uint32_t)left);
            uint8_t card = deck[k];
            deck[k] = deck[left - 1];
            out[0] = names[card][0];
            out[1] = names[card][1];
            out[2] = ' ';
            out += 3;
        }
        out[-1] = '\n';
        used += LINE;
        if (used == sizeof buffer) {
            if (fwrite(buffer, 1, used, stdout) != used) return 1;
            used = 0;
        }
    }
    if (used && fwrite(buffer, 1, used, stdout) != used) return 1;
    return fflush(stdout) == 0 ? 0 : 1;
}
