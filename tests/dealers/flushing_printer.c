/* A correct classic dealer for stream: tests, printing each deal as `Deck N`, 7 rows and a blank
 * line, and flushing its output the way real programs happen to:
 *
 *   flushing_printer HABIT [K]  reads deal numbers on stdin, one per line
 *
 *   header  after the `Deck N` line only (C++ `std::cout << "Deck " << n << std::endl`)
 *   tied    after the header and before each read (C++ with cin tied to cout, the default)
 *   line    after every line          board  after every board (the blank line)
 *   card    after every card          none   only when the buffer fills or at exit
 *   crlf    as `header`, with CRLF line ends
 *
 * With K > 0, after every K-th deal's header is flushed it waits until its reader has drained
 * the pipe (Linux: FIONREAD), so that the reader's read ends right there, as it does when the
 * program runs no faster than its reader. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";

int main(int argc, char **argv) {
    static char buffer[1 << 16];
    const char *habit = argc > 1 ? argv[1] : "header";
    int by_header = !strcmp(habit, "header") || !strcmp(habit, "tied") || !strcmp(habit, "crlf");
    int tied = !strcmp(habit, "tied"), by_line = !strcmp(habit, "line"), by_board = !strcmp(habit, "board");
    int by_card = !strcmp(habit, "card");
    unsigned long drain_every = argc > 2 ? strtoul(argv[2], NULL, 10) : 0, dealt = 0;
    const char *eol = strcmp(habit, "crlf") ? "\n" : "\r\n";
    char request[64];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    for (;;) {
        if (tied) fflush(stdout);
        if (!fgets(request, sizeof request, stdin)) break;
        uint32_t n = (uint32_t)strtoul(request, NULL, 10), state = n;
        uint8_t deck[52];
        for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
        printf("Deck %u%s", n, eol);
        if (by_header || by_line) fflush(stdout);
        if (drain_every && ++dealt % drain_every == 0) {
            fflush(stdout);
            for (int queued = 1; ioctl(1, FIONREAD, &queued) == 0 && queued > 0;) usleep(20);
        }
        for (int left = 52, p = 0; left > 0; left--, p++) {
            state = (214013u * state + 2531011u) & 0x7fffffffu;
            int k = (int)((state >> 16) % (uint32_t)left);
            uint8_t card = deck[k];
            deck[k] = deck[left - 1];
            printf("%c%c", RANKS[card / 4], SUITS[card % 4]);
            if (by_card) fflush(stdout);
            if (p % 8 == 7 || p == 51) {
                fputs(eol, stdout);
                if (by_line) fflush(stdout);
            } else {
                putchar(' ');
            }
        }
        fputs(eol, stdout);
        if (by_line || by_board) fflush(stdout);
    }
    return 0;
}
