/* A correct classic dealer (stream: one deal number per stdin line, or cmd: one deal per argument),
 * printing `Deck N`, 7 rows and a blank line, that uses the machine the way some real programs do:
 *
 *   limited zombies [N...]     forks a child at every deal that exits at once, and never reaps it
 *                              (a fork refused: `fork: <error>` on stderr, exit 1)
 *   limited reserve MB [N...]  first reserves MB megabytes of address space it never touches
 *                              (mmap PROT_NONE, as JVMs and Go do), then deals
 *   limited use MB [N...]      first takes and writes to MB megabytes (refused: `malloc: …` on stderr, exit 1)
 *   limited abort K [N...]     aborts (SIGABRT) after answering K deals
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char RANKS[] = "A23456789TJQK", SUITS[] = "CDHS";
static const char *mode;
static unsigned long dealt, abort_after;

static void deal(uint32_t n) {
    if (!strcmp(mode, "abort") && dealt == abort_after) {
        fflush(stdout);
        abort();
    }
    if (!strcmp(mode, "zombies")) {
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "fork: %s\n", strerror(errno));
            exit(1);
        }
        if (pid == 0) _exit(0);
    }
    uint32_t state = n;
    uint8_t deck[52];
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    printf("Deck %u\n", n);
    for (int left = 52, p = 0; left > 0; left--, p++) {
        state = (214013u * state + 2531011u) & 0x7fffffffu;
        int k = (int)((state >> 16) % (uint32_t)left);
        uint8_t card = deck[k];
        deck[k] = deck[left - 1];
        printf("%c%c%s", RANKS[card / 4], SUITS[card % 4], p % 8 == 7 || p == 51 ? "\n" : " ");
    }
    printf("\n");
    fflush(stdout);
    dealt++;
}

int main(int argc, char **argv) {
    mode = argc > 1 ? argv[1] : "";
    int first = 2;
    if (!strcmp(mode, "reserve")) {
        size_t bytes = (size_t)strtoul(argv[2], NULL, 10) << 20;
        if (mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) == MAP_FAILED) {
            printf("Error: could not reserve %zu bytes of address space: %s\n", bytes, strerror(errno));
            return 1;
        }
        first = 3;
    } else if (!strcmp(mode, "use")) {
        size_t bytes = (size_t)strtoul(argv[2], NULL, 10) << 20;
        char *taken = malloc(bytes);
        if (taken == NULL) {
            fprintf(stderr, "malloc: %s\n", strerror(errno));
            return 1;
        }
        memset(taken, 1, bytes);
        first = 3;
    } else if (!strcmp(mode, "abort")) {
        abort_after = strtoul(argv[2], NULL, 10);
        first = 3;
    }
    if (argc > first) {
        for (int i = first; i < argc; i++) deal((uint32_t)strtoul(argv[i], NULL, 10));
        return 0;
    }
    char request[64];
    while (fgets(request, sizeof request, stdin)) deal((uint32_t)strtoul(request, NULL, 10));
    return 0;
}
