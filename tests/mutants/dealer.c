/* A FreeCell dealer with one planted bug, chosen at compile time: cc -DBUG_<NAME> dealer.c
 * (no -D: the correct dealer).  Prints rows; `dealer N` deals N, `dealer` reads numbers from
 * stdin.  stdout is left fully buffered, as a careless program's would be. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef BUG_SUIT_ORDER
static const char SUITS[] = "CDSH"; /* hearts and spades swapped */
#else
static const char SUITS[] = "CDHS";
#endif
static const char RANKS[] = "A23456789TJQK";

static void deal(long long number) {
#ifdef BUG_CLAMP_32000
    if (number > 32000) number = 32000; /* "the original game only has 32000 deals" */
#endif
#ifdef BUG_INT16
    int16_t n = (int16_t)number; /* deal number kept in a 16-bit int */
    uint32_t state = (uint32_t)(int32_t)n;
#else
    uint32_t state = (uint32_t)number;
#endif
    int deck[52], dealt[52];
    for (int i = 0; i < 52; i++) deck[i] = i;
    for (int left = 52, p = 0; left > 0; left--, p++) {
#ifdef BUG_STATE_32BIT
        state = 214013u * state + 2531011u; /* no mod 2^31 */
        uint32_t r = state >> 16;
#else
        state = (214013u * state + 2531011u) & 0x7fffffffu;
        uint32_t r = state >> 16;
#endif
#ifdef BUG_MODULUS
        int k = (int)(r % (uint32_t)(left > 1 ? left - 1 : 1)); /* off by one */
#else
        int k = (int)(r % (uint32_t)left);
#endif
        dealt[p] = deck[k];
        deck[k] = deck[left - 1];
    }
#ifdef BUG_ONE_DEAL
    if (number == 123456) { int t = dealt[20]; dealt[20] = dealt[21]; dealt[21] = t; }
#endif
#ifdef BUG_DUPLICATE
    if (number == 500) dealt[10] = dealt[11];
#endif
#ifdef BUG_CRASH
    if (number == 300) abort();
#endif
#ifdef BUG_HANG
    if (number == 400) for (;;) pause();
#endif
    int cards = 52;
#ifdef BUG_51_CARDS
    if (number == 700) cards = 51;
#endif
    for (int p = 0; p < cards; p++) {
#ifdef BUG_NOT_TEXT
        if (number == 250 && p == 5) { fputs("\xff\xfe", stdout); putchar(' '); continue; }
#endif
        putchar(RANKS[dealt[p] / 4]);
        putchar(SUITS[dealt[p] % 4]);
        putchar(p % 8 == 7 || p == cards - 1 ? '\n' : ' ');
    }
}

int main(int argc, char **argv) {
    long long n;
    if (argc > 1) {
        deal(atoll(argv[1]));
        return 0;
    }
    while (scanf("%lld", &n) == 1) deal(n);
    return 0;
}
