/* The `freecell-harness` command: Ctrl-C and SIGTERM blocked from its first instruction, then Python.

   A blocked signal stays pending across execve, so one that comes while the interpreter starts (before
   it has a handler, while `site` runs) waits until the package's first lines hold it and unblock it
   (harness/__init__.py): exit 130 in one line at any moment, never a traceback or a death by the signal.

   The interpreter is the one the package was installed for: the first line of the script installed
   beside this program, `freecell-harness-python`, which the installer rewrote from `#!python` to
   `#!<interpreter>`.  That script is then run as the kernel would run it, with the same arguments. */

#define _XOPEN_SOURCE 700 /* realpath */

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIBLING "freecell-harness-python"

static sigset_t before;

static int fail(const char *path, const char *why) {
    fprintf(stderr, "freecell-harness: cannot start Python: %s: %s\n", path, why);
    sigprocmask(SIG_SETMASK, &before, NULL);
    return 2;
}

/* This program's own path, symbolic links resolved: where the installer put it, beside its sibling. */
static char *own_path(const char *argv0) {
    char *found = realpath("/proc/self/exe", NULL);
    if (found != NULL || strchr(argv0, '/') != NULL)
        return found != NULL ? found : realpath(argv0, NULL);
    const char *path = getenv("PATH");
    static char candidate[PATH_MAX];
    for (const char *dir = path != NULL ? path : ""; *dir != '\0';) {
        size_t length = strcspn(dir, ":");
        int fits = snprintf(candidate, sizeof candidate, "%.*s/%s", length ? (int)length : 1,
                            length ? dir : ".", argv0) < (int)sizeof candidate;
        if (fits && access(candidate, X_OK) == 0)
            return realpath(candidate, NULL);
        dir += length + (dir[length] == ':');
    }
    errno = ENOENT;
    return NULL;
}

int main(int argc, char **argv) {
    sigset_t stopping;
    sigemptyset(&stopping);
    sigaddset(&stopping, SIGINT);
    sigaddset(&stopping, SIGTERM);
    sigprocmask(SIG_BLOCK, &stopping, &before);

    const char *name = argc > 0 ? argv[0] : "freecell-harness";
    char *self = own_path(name);
    if (self == NULL)
        return fail(name, strerror(errno));
    char *slash = strrchr(self, '/');
    size_t dir = slash != NULL ? (size_t)(slash - self) + 1 : 0;
    char *sibling = malloc(dir + sizeof SIBLING);
    if (sibling == NULL)
        return fail(self, strerror(errno));
    memcpy(sibling, self, dir);
    memcpy(sibling + dir, SIBLING, sizeof SIBLING);

    char line[PATH_MAX + 256];
    FILE *script = fopen(sibling, "r");
    if (script == NULL)
        return fail(sibling, strerror(errno));
    if (fgets(line, sizeof line, script) == NULL)
        return fail(sibling, ferror(script) ? strerror(errno) : "it is empty");
    fclose(script);
    if (strncmp(line, "#!", 2) != 0)
        return fail(sibling, "its first line is not #!<interpreter>");
    if (strchr(line, '\n') == NULL && strlen(line) == sizeof line - 1)
        return fail(sibling, "its #! line is too long");
    line[strcspn(line, "\r\n")] = '\0';

    /* As the kernel reads it, `#!<interpreter> [one argument]`; or, where the whole line names a
       program, that program (an installer writes the interpreter's path as it is, spaces and all). */
    char *interpreter = line + 2 + strspn(line + 2, " \t");
    char *end = interpreter + strlen(interpreter);
    while (end > interpreter && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    if (*interpreter == '\0')
        return fail(sibling, "its #! line names no interpreter");
    char *argument = NULL;
    if (access(interpreter, X_OK) != 0) {
        char *blank = interpreter + strcspn(interpreter, " \t");
        if (*blank != '\0') {
            *blank = '\0';
            argument = blank + 1 + strspn(blank + 1, " \t");
        }
    }

    char **args = malloc(((size_t)argc + 3) * sizeof *args);
    if (args == NULL)
        return fail(sibling, strerror(errno));
    int n = 0;
    args[n++] = interpreter;
    if (argument != NULL)
        args[n++] = argument;
    args[n++] = sibling;
    for (int i = 1; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    execv(interpreter, args);
    return fail(interpreter, strerror(errno));
}
