/* A fast native stream dealer that lies about its layout at one deal, for tests of the bulk paths.
 *
 *   pace_liar FORMAT LIE AT     reads deal numbers on stdin, one a line
 *
 * FORMAT: line (canonical lines), rows, header (a "Game #N" line, then rows).
 * LIE, at deal AT (and, for "lower", every deal from AT on):
 *   none     every board right
 *   wide     two spaces between the first two cards (a right board, one byte longer)
 *   lower    lower-case letters (right boards, spelt otherwise)
 *   suitfirst  the first card suit-first, "DJ" (a right board, spelt otherwise)
 *   garbage  a line "garbage" printed before the board
 *   missing  no board at all
 *   swapped  the board with its first two cards swapped (a wrong board)
 *   headercard  the header's number replaced by "AC" and digits (a card in a header), same length
 *   tired    every board after the process has dealt AT boards has its first two cards swapped (stateful)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void deal(long n, char cards[52][3]) {
    static const char ranks[] = "A23456789TJQK", suits[] = "CDHS";
    int deck[52], left = 52;
    unsigned long state = (unsigned long)n;
    for (int i = 0; i < 52; i++) deck[i] = i;
    for (int i = 0; i < 52; i++) {
        state = (214013UL * state + 2531011UL) & 0x7FFFFFFFUL;
        int k = (int)((state >> 16) % (unsigned long)left);
        cards[i][0] = ranks[deck[k] / 4];
        cards[i][1] = suits[deck[k] % 4];
        cards[i][2] = 0;
        deck[k] = deck[--left];
    }
}

static const char *format, *lie;
static long at;

static void show(long n) {
    int rows = strcmp(format, "line") != 0, header = strcmp(format, "header") == 0;
    int here = n == at, lower = strcmp(lie, "lower") == 0 && n >= at;
    if (here && strcmp(lie, "missing") == 0) return;
    if (here && strcmp(lie, "garbage") == 0) fputs("garbage\n", stdout);
    char cards[52][3];
    deal(n, cards);
    static long dealt = 0;
    int tired = strcmp(lie, "tired") == 0 && ++dealt > at;
    if ((here && strcmp(lie, "swapped") == 0) || tired) {
        char t[3];
        memcpy(t, cards[0], 3), memcpy(cards[0], cards[1], 3), memcpy(cards[1], t, 3);
    }
    if (header) {
        if (here && strcmp(lie, "headercard") == 0) {
            int digits = snprintf(NULL, 0, "%ld", n);
            printf("Game #AC %0*d\n", digits - 3, 0);
        } else {
            printf("Game #%ld\n", n);
        }
    }
    for (int i = 0; i < 52; i++) {
        char a = cards[i][0], b = cards[i][1];
        if (lower) a = (char)tolower(a), b = (char)tolower(b);
        if (i == 0 && here && strcmp(lie, "suitfirst") == 0) printf("%c%c", b, a);
        else printf("%c%c", a, b);
        if (i == 51) putchar('\n');
        else if (rows && i % 8 == 7) putchar('\n');
        else fputs(i == 0 && here && strcmp(lie, "wide") == 0 ? "  " : " ", stdout);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: pace_liar line|rows|header LIE AT\n");
        return 2;
    }
    format = argv[1], lie = argv[2], at = atol(argv[3]);
    static char out[1 << 16], in[1 << 16];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    size_t have = 0;
    for (;;) {  /* what one read brings is answered, then flushed: it waits for more with nothing held */
        ssize_t got = read(0, in + have, sizeof in - 1 - have);
        if (got <= 0) break;
        have += (size_t)got;
        size_t start = 0;
        for (size_t i = 0; i < have; i++) {
            if (in[i] != '\n') continue;
            in[i] = 0;
            show(atol(in + start));
            start = i + 1;
        }
        memmove(in, in + start, have - start);
        have -= start;
        fflush(stdout);
    }
    fflush(stdout);
    return 0;
}
