/* Microsoft FreeCell deals printed in the layouts dealers print (for bench_stream.py).
 *
 *   layouts LAYOUT     read deal numbers from stdin, one per line; print each deal
 *
 * LAYOUT: rows (plain rows), header (a "Game #N" line, then rows), symbols (J♦), ten (10D),
 * suit-first (DJ), ansi (each card coloured), quoted (['JD', 'QS', …] per row), json (one line
 * [["JD",…],…] per deal), header-symbols (a "Game #N" line, then rows of J♦).  Output is written whenever the input runs dry. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";
static const char *SYMBOLS[] = {"\xe2\x99\xa3", "\xe2\x99\xa6", "\xe2\x99\xa5", "\xe2\x99\xa0"};
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

static void put(const char *s) {
    size_t k = strlen(s);
    memcpy(out + used, s, k);
    used += k;
}

static char names[52][32];  /* each card as the layout writes it, made once */
static size_t lengths[52];

static void make_names(const char *layout) {
    for (int c = 0; c < 52; c++) {
        char r = RANKS[c / 4], s = SUITS[c % 4];
        char *buf = names[c];
        if (!strcmp(layout, "symbols") || !strcmp(layout, "header-symbols")) {
            snprintf(buf, 32, "%c%s", r, SYMBOLS[c % 4]);
        } else if (!strcmp(layout, "ten")) {
            if (r == 'T') snprintf(buf, 32, "10%c", s);
            else snprintf(buf, 32, "%c%c", r, s);
        } else if (!strcmp(layout, "suit-first")) {
            snprintf(buf, 32, "%c%c", s, r);
        } else if (!strcmp(layout, "ansi")) {
            snprintf(buf, 32, "\x1b[%dm%c%c\x1b[0m", (s == 'D' || s == 'H') ? 31 : 30, r, s);
        } else if (!strcmp(layout, "quoted")) {
            snprintf(buf, 32, "'%c%c'", r, s);
        } else if (!strcmp(layout, "json")) {
            snprintf(buf, 32, "\"%c%c\"", r, s);
        } else {
            snprintf(buf, 32, "%c%c", r, s);
        }
        lengths[c] = strlen(buf);
    }
}

static void card(int c) {
    memcpy(out + used, names[c], lengths[c]);
    used += lengths[c];
}

static void deal(const char *layout, uint32_t n) {
    uint8_t deck[52];
    uint32_t state = n;
    int quoted = !strcmp(layout, "quoted"), json = !strcmp(layout, "json");
    if (used > sizeof out - 4096) flush_out();
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    if (!strncmp(layout, "header", 6)) used += (size_t)sprintf(out + used, "Game #%u\n", n);
    if (json) put("[");
    for (int left = 52, p = 0; left > 0; left--, p++) {
        state = (214013u * state + 2531011u) & 0x7fffffffu;
        int k = (int)((state >> 16) % (uint32_t)left);
        uint8_t c = deck[k];
        deck[k] = deck[left - 1];
        if (p % 8 == 0) put(json ? (p ? ",[" : "[") : quoted ? "[" : "");
        card(c);
        int end_of_row = p % 8 == 7 || p == 51;
        if (end_of_row) put(json ? "]" : quoted ? "]\n" : "\n");
        else put(json || quoted ? ", " : " ");
    }
    if (json) put("]\n");
}

int main(int argc, char **argv) {
    const char *layout = argc > 1 ? argv[1] : "rows";
    char line[64];
    make_names(layout);
    while (fgets(line, sizeof line, stdin)) {
        deal(layout, (uint32_t)strtoul(line, NULL, 10));
        if (stdin->_IO_read_ptr >= stdin->_IO_read_end) flush_out();
    }
    flush_out();
    return 0;
}
