/* The spawner in C (`_spawner FD`): the same program as harness/process/spawner_main.py, step for step,
   without an interpreter's start and its costs per process.  The protocol, and why each step is there, is
   in spawner_main.py; where this differs in how, not what, a comment says so.

   `_spawner --sentinel ENTRY ROOTS PREFIX` is the sentinel of harness/process/sentinel.py instead, step for
   step its SCRIPT (see there why): it detaches, waits for its stdin to end, then kills every process whose
   environment holds ENTRY and every member of the cgroups named PREFIX… under ROOTS, and removes those. */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#define MAX_MESSAGE (1 << 20)
#define MALFORMED "a malformed message"

static int control, devnull;
static char **env;            /* NAME=value ..., NULL: the setup's, with the marker's entry at marker_at */
static size_t marker_at;
static char *marker_name, *marker_entry;
static char *cwd;             /* the working directory of the moment */
static sigset_t reset;        /* the signals it inherited ignored: set to their default in each process */
static pid_t *live;
static size_t live_count, live_room;

static void *grab(size_t size) /* where Python would raise MemoryError: the end, as any exception */
{
    void *p = malloc(size);
    if (p == NULL)
        _exit(1);
    return p;
}

static void say(const char *text, size_t length)
{
    while (send(control, text, length, MSG_NOSIGNAL) < 0 && errno == EINTR)
        ;
}

/* -- messages: fields ended by NUL bytes -- */

struct fields {
    char *at, *end;
    int bad;
};

static char *string(struct fields *f)
{
    char *start = f->at, *nul = f->bad ? NULL : memchr(f->at, '\0', (size_t)(f->end - f->at));
    if (nul == NULL) {
        f->bad = 1;
        return "";
    }
    f->at = nul + 1;
    return start;
}

static long long number(struct fields *f)
{
    char *s = string(f);
    size_t n = strlen(s);
    if (n == 0 || n > 18 || strspn(s, "0123456789") != n) {
        f->bad = 1;
        return 0;
    }
    return strtoll(s, NULL, 10);
}

static long long length(struct fields *f) /* of a list: no more items than the bytes left */
{
    long long n = number(f);
    if (n > f->end - f->at) {
        f->bad = 1;
        return 0;
    }
    return n;
}

/* -- paths and files -- */

static char *dirname_of(const char *path) /* os.path.dirname */
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0, kept = n;
    char *head = strndup(path, n);
    if (head == NULL)
        _exit(1);
    while (kept > 0 && head[kept - 1] == '/')
        kept--;
    if (kept > 0)
        head[kept] = '\0';
    return head;
}

static char *join(const char *dir, const char *name) /* os.path.join, `name` relative */
{
    size_t n = strlen(dir);
    char *path = grab(n + strlen(name) + 2);
    sprintf(path, "%s%s%s", dir, n == 0 || dir[n - 1] == '/' ? "" : "/", name);
    return path;
}

static int write_file(const char *file, const char *data)
{
    int fd = open(file, O_WRONLY | O_CLOEXEC), done;
    if (fd < 0)
        return -1;
    done = write(fd, data, strlen(data)) < 0 ? -1 : 0;
    return close(fd) < 0 ? -1 : done;
}

static char *read_file(const char *file) /* to its end: a pid cut in two would be another pid */
{
    size_t size = 0, room = 1 << 16;
    char *data = grab(room + 1);
    ssize_t n = 0;
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        free(data);
        return NULL;
    }
    while ((n = read(fd, data + size, room - size)) > 0) {
        size += (size_t)n;
        if (size == room) {
            char *more = realloc(data, (room *= 2) + 1);
            if (more == NULL)
                _exit(1);
            data = more;
        }
    }
    close(fd);
    if (n < 0) {
        free(data);
        return NULL;
    }
    data[size] = '\0';
    return data;
}

#define SPACE " \t\n\r\v\f"

static int integer(const char *token, size_t n, long long *value) /* Python's int() of what the kernel writes */
{
    size_t sign = *token == '+' || *token == '-';
    if (n == 0 || n > 18 || strspn(token + sign, "0123456789") + sign != n || n == sign)
        return -1;
    *value = strtoll(token, NULL, 10);
    return 0;
}

/* A count of a cgroup's events file (`max` of pids.events; `oom_kill`), read again and again through the
   one file descriptor opened for it, the first of `files` beside `procs` there is (0: none). */
struct count {
    int fd;
    const char *key;
};

static struct count count_open(const char *procs, const char *const *files, const char *key)
{
    struct count count = {-1, key};
    char *dir, *path;
    if (procs == NULL)
        return count;
    dir = dirname_of(procs);
    for (; *files != NULL && count.fd < 0; files++) {
        path = join(dir, *files);
        count.fd = open(path, O_RDONLY | O_CLOEXEC);
        free(path);
    }
    free(dir);
    return count;
}

static long long count_read(const struct count *count)
{
    char data[(1 << 12) + 1], *line, *next, *token, *value;
    long long sum = 0, n;
    ssize_t size;
    if (count->fd < 0 || (size = pread(count->fd, data, 1 << 12, 0)) < 0)
        return 0;
    data[size] = '\0';
    for (line = data; *line != '\0'; line = next) {
        next = line + strcspn(line, "\r\n");
        if (*next != '\0')
            *next++ = '\0';
        token = line + strspn(line, SPACE);
        value = token + strcspn(token, SPACE);
        if ((size_t)(value - token) != strlen(count->key) || strncmp(token, count->key, (size_t)(value - token)) != 0)
            continue;
        value += strspn(value, SPACE);
        if (integer(value, strcspn(value, SPACE), &n) < 0)
            return 0;
        sum += n;
    }
    return sum;
}

/* Every member of the cgroup but this process; how many (none where the file could not be read). */
static size_t members(const char *procs, pid_t **found)
{
    char *data = procs ? read_file(procs) : NULL, *token;
    size_t count = 0, n;
    long long pid;
    *found = NULL;
    if (data == NULL)
        return 0;
    *found = grab((strlen(data) / 2 + 1) * sizeof **found);
    for (token = data + strspn(data, SPACE); *token != '\0'; token += n, token += strspn(token, SPACE)) {
        n = strcspn(token, SPACE);
        if (integer(token, n, &pid) < 0) {
            count = 0;
            break;
        }
        if (pid != getpid())
            (*found)[count++] = (pid_t)pid;
    }
    free(data);
    return count;
}

/* -- processes -- */

static int childless(void)
{
    siginfo_t info;
    return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD;
}

static void reap_ended(void)
{
    pid_t pid;
    while ((pid = waitpid(-1, NULL, WNOHANG)) > 0 || (pid < 0 && errno == EINTR))
        ;
}

static void kill_everything(const pid_t *pids, size_t count, const char *cgroup_procs)
{
    pid_t *doomed;
    size_t i, n;
    int attempt;
    for (i = 0; i < count; i++) {
        killpg(pids[i], SIGKILL);
        kill(pids[i], SIGKILL);
    }
    for (attempt = 0; attempt < 1000; attempt++) {
        n = members(cgroup_procs, &doomed);
        for (i = 0; i < n; i++)
            kill(doomed[i], SIGKILL);
        free(doomed);
        if (n == 0)
            break;
        reap_ended();
        if (attempt >= 10)
            poll(NULL, 0, 1); /* the killed are still being torn down */
    }
}

static int is_named(const char *entry, const char *name) /* `entry` NAME=value: whether NAME is `name` */
{
    size_t n = strlen(name);
    return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

static void set_marker(const char *marker)
{
    free(marker_entry);
    marker_entry = grab(strlen(marker_name) + strlen(marker) + 2);
    sprintf(marker_entry, "%s=%s", marker_name, marker);
    env[marker_at] = marker_entry;
}

static const char *path_of(void)
{
    char **entry;
    for (entry = env; *entry != NULL; entry++)
        if (is_named(*entry, "PATH"))
            return *entry + 5;
    return "/bin:/usr/bin";
}

/* Start what `message` asks for; its pid, or -1 with the error's number and text (number 0: not the
   system's). */
static pid_t spawn(char *message, size_t size, const int *fds, size_t fd_count, int *error_number, const char **text)
{
    struct fields f = {message, message + size, 0};
    long long argc = length(&f), i, cpu_s;
    char **argv = grab(((size_t)argc + 1) * sizeof *argv), *request_cwd, *marker, *candidate;
    const char *program, *dirs, *end;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t none;
    pid_t pid = -1;
    int failure = ENOENT, error;
    for (i = 0; i < argc; i++)
        argv[i] = string(&f);
    argv[argc] = NULL;
    request_cwd = string(&f);
    marker = string(&f);
    cpu_s = number(&f);
    *error_number = 0;
    if (f.bad || f.at != f.end) {
        *text = MALFORMED;
        free(argv);
        return -1;
    }
    if (strcmp(request_cwd, cwd) != 0) {
        if (chdir(request_cwd) < 0) {
            *error_number = errno;
            *text = strerror(errno);
            free(argv);
            return -1;
        }
        free(cwd);
        cwd = strdup(request_cwd);
        if (cwd == NULL)
            _exit(1);
    }
    set_marker(marker);
    if (argc == 0 || argv[0][0] == '\0') { /* as Python's posix_spawn says it */
        *text = argc == 0 ? "posix_spawn: argv must not be empty" : "posix_spawn: argv first element cannot be empty";
        free(argv);
        return -1;
    }
    posix_spawn_file_actions_init(&actions);
    for (i = 0; i < 3; i++)
        posix_spawn_file_actions_adddup2(&actions, fd_count == 3 ? fds[i] : i == 0 ? devnull : fds[i - 1], (int)i);
    posix_spawnattr_init(&attributes);
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &reset);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    program = argv[0];
    dirs = strchr(program, '/') ? NULL : path_of();
    candidate = grab((dirs ? strlen(dirs) : 0) + strlen(program) + 2);
    do { /* as execvp does: the first error other than "not found" is the one */
        end = dirs ? strchrnul(dirs, ':') : NULL;
        if (dirs == NULL || end == dirs)
            strcpy(candidate, program);
        else
            sprintf(candidate, "%.*s%s%s", (int)(end - dirs), dirs, end[-1] == '/' ? "" : "/", program);
        error = posix_spawn(&pid, candidate, &actions, &attributes, argv, env);
        if (error == 0)
            break;
        pid = -1;
        if (error != ENOENT && error != ENOTDIR && (failure == ENOENT || failure == ENOTDIR))
            failure = error;
        dirs = end && *end ? end + 1 : NULL;
    } while (dirs != NULL);
    free(candidate);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    free(argv);
    if (pid < 0) {
        *error_number = failure;
        *text = strerror(failure);
    } else if (cpu_s) {
        /* Set from here, not inherited: the spawner's own CPU time would count against it. */
        struct rlimit cpu = {(rlim_t)cpu_s, (rlim_t)cpu_s + 1};
        prlimit(pid, RLIMIT_CPU, &cpu, NULL);
    }
    return pid;
}

static struct count refused, killed;

/* Start what `message` asks for and say so (after `before`, an X that must come first). */
static void answer(char *message, size_t size, const int *fds, size_t fd_count, const char *before)
{
    char said[4096], reason[64];
    const char *text = NULL;
    int number = 0;
    long long refused_before, killed_before;
    pid_t pid;
    size_t i, n = 0;
    if (before[0] != '\0')
        n = (size_t)snprintf(said, sizeof said, "%s\n", before);
    if (fd_count != 2 && fd_count != 3) {
        snprintf(reason, sizeof reason, "%zu file descriptors, not 2 or 3", fd_count);
        text = reason;
    } else {
        refused_before = count_read(&refused); /* nothing else runs in the cgroup now */
        killed_before = count_read(&killed);
        pid = spawn(message, size, fds, fd_count, &number, &text);
        if (pid > 0) {
            if (live_count == live_room) {
                live_room = live_room ? 2 * live_room : 4;
                live = realloc(live, live_room * sizeof *live);
                if (live == NULL)
                    _exit(1);
            }
            live[live_count++] = pid;
            n += (size_t)snprintf(said + n, sizeof said - n, "P%d %lld %lld", (int)pid, refused_before, killed_before);
        }
    }
    if (text != NULL)
        n += (size_t)snprintf(said + n, sizeof said - n, "E%d:%s", number, text);
    for (i = 0; i < fd_count; i++)
        close(fds[i]);
    say(said, n < sizeof said ? n : sizeof said - 1);
}

/* -- set-up -- */

static int join_cgroup(const char *procs)
{
    return procs != NULL && write_file(procs, "0") == 0;
}

/* Join the cgroups, set the limits; 0, or -1 with why in `why`. */
static int set_up(char *message, size_t size, char **cgroup_procs, char **memory_procs, int joined[2], char *why,
                  size_t why_size)
{
    struct fields f = {message, message + size, 0};
    long long counts[3][2], envc, i, j, k, n = 0, (*rlimits)[2];
    char *entry, *equals;
    struct rlimit now, set;
    *cgroup_procs = string(&f);
    *memory_procs = string(&f);
    marker_name = string(&f);
    rlimits = grab((size_t)(f.end - f.at + 1) * sizeof *rlimits);
    for (k = 0; k < 3; k++) { /* rlimits, unjoined_rlimits, unbounded_rlimits */
        counts[k][0] = n;
        for (j = length(&f); j > 0; j--, n++) {
            rlimits[n][0] = number(&f);
            rlimits[n][1] = number(&f);
        }
        counts[k][1] = n;
    }
    envc = length(&f);
    env = grab(((size_t)envc + 2) * sizeof *env);
    for (i = 0; i < envc; i++) {
        env[i] = entry = string(&f);
        equals = strchr(entry, '=');
        if (equals == NULL || equals == entry)
            f.bad = 1;
        for (j = 0; j < i && !f.bad; j++)
            if (strncmp(env[j], entry, (size_t)(equals - entry) + 1) == 0)
                f.bad = 1;
    }
    if (f.bad || f.at != f.end || marker_name[0] == '\0' || strchr(marker_name, '=')) {
        snprintf(why, why_size, "%s", MALFORMED);
        return -1;
    }
    for (marker_at = 0; marker_at < (size_t)envc; marker_at++)
        if (is_named(env[marker_at], marker_name))
            break;
    env[marker_at == (size_t)envc ? envc + 1 : envc] = NULL;
    if (**cgroup_procs == '\0')
        *cgroup_procs = NULL;
    if (**memory_procs == '\0')
        *memory_procs = NULL;
    joined[0] = join_cgroup(*cgroup_procs);
    joined[1] = join_cgroup(*memory_procs);
    if (*cgroup_procs && *memory_procs && strcmp(*cgroup_procs, *memory_procs) == 0) /* v2: one does both */
        joined[0] = joined[1] = joined[0] || joined[1];
    for (k = 0; k < 3; k++) {
        if ((k == 1 && joined[0]) || (k == 2 && joined[1]))
            continue;
        for (i = counts[k][0]; i < counts[k][1]; i++) {
            if (rlimits[i][0] >= RLIM_NLIMITS) {
                snprintf(why, why_size, "invalid resource specified");
                return -1;
            }
            if (getrlimit((int)rlimits[i][0], &now) < 0) {
                snprintf(why, why_size, "[Errno %d] %s", errno, strerror(errno));
                return -1;
            }
            set.rlim_cur = set.rlim_max = (rlim_t)rlimits[i][1];
            if (now.rlim_max != RLIM_INFINITY && now.rlim_max < set.rlim_max)
                set.rlim_cur = set.rlim_max = now.rlim_max;
            if (setrlimit((int)rlimits[i][0], &set) < 0) { /* in the words of Python's resource.setrlimit */
                if (errno == EINVAL)
                    snprintf(why, why_size, "current limit exceeds maximum limit");
                else if (errno == EPERM)
                    snprintf(why, why_size, "not allowed to raise maximum limit");
                else
                    snprintf(why, why_size, "[Errno %d] %s", errno, strerror(errno));
                return -1;
            }
        }
    }
    free(rlimits);
    return 0;
}

static void interrupted(int signum) /* as spawner_main.py ends at a KeyboardInterrupt */
{
    (void)signum;
    _exit(1);
}

struct request { /* one made while a process was live: started in turn */
    struct request *next;
    size_t size, fd_count;
    int fds[3];
    char message[];
};

static void leave(const char *procs) /* its cgroup, and remove it: the harness may not live to do it */
{
    char *group = dirname_of(procs), *parent = dirname_of(group), *parent_procs = join(parent, "cgroup.procs");
    if (write_file(parent_procs, "0") == 0)
        rmdir(group);
    free(parent_procs);
    free(parent);
    free(group);
}

/* The sentinel (sentinel.py's SCRIPT) ---------------------------------------------------------------- */

static char **cgroups_named(const char *roots, const char *prefix, size_t *count) /* SCRIPT's cgroups() */
{
    char **found = NULL, *all = strcpy(grab(strlen(roots) + 1), roots), *root, *rest = all;
    size_t room = 0;
    struct dirent *entry;
    DIR *dir;

    *count = 0;
    while ((root = strsep(&rest, ":")) != NULL) {
        if ((dir = opendir(root)) == NULL)
            continue;
        while ((entry = readdir(dir)) != NULL) {
            if (strncmp(entry->d_name, prefix, strlen(prefix)) != 0)
                continue;
            if (*count == room) {
                char **more = realloc(found, (room = room ? 2 * room : 8) * sizeof *found);
                if (more == NULL)
                    _exit(1);
                found = more;
            }
            found[(*count)++] = join(root, entry->d_name);
        }
        closedir(dir);
    }
    free(all);
    return found;
}

static int holds_entry(const char *environ_file, const char *entry) /* an entry of its environment starts so */
{
    size_t size = 0, room = 1 << 14, n = strlen(entry), at;
    char *data = grab(room);
    ssize_t got;
    int fd = open(environ_file, O_RDONLY | O_CLOEXEC), found = 0;

    if (fd < 0) {
        free(data);
        return 0;
    }
    while ((got = read(fd, data + size, room - size)) > 0)
        if ((size += (size_t)got) == room) {
            char *more = realloc(data, room *= 2);
            if (more == NULL)
                _exit(1);
            data = more;
        }
    close(fd);
    for (at = 0; got == 0 && at < size && !found; at += strnlen(data + at, size - at) + 1)
        found = size - at >= n && memcmp(data + at, entry, n) == 0;
    free(data);
    return found;
}

static int sentinel(const char *entry, const char *roots, const char *prefix)
{
    char buffer[4096], file[300], *members, *token, *rest;
    struct dirent *process;
    struct timespec pause = {0, 20 * 1000 * 1000};
    size_t count, i, round, tries;
    ssize_t n;
    char **groups;
    DIR *proc;
    int found;

    signal(SIGINT, SIG_IGN);
    if (fork() != 0)
        _exit(0);
    while ((n = read(0, buffer, sizeof buffer)) != 0)
        if (n < 0 && errno != EINTR)
            break;
    for (round = 0; round < 200; round++) {
        found = 0;
        if ((proc = opendir("/proc")) != NULL) {
            while ((process = readdir(proc)) != NULL) {
                if (strspn(process->d_name, "0123456789") != strlen(process->d_name))
                    continue;
                snprintf(file, sizeof file, "/proc/%s/environ", process->d_name);
                if (holds_entry(file, entry)) {
                    found = 1;
                    kill((pid_t)atoi(process->d_name), SIGKILL);
                }
            }
            closedir(proc);
        }
        groups = cgroups_named(roots, prefix, &count);
        for (i = 0; i < count; i++) {
            char *procs = join(groups[i], "cgroup.procs");
            if ((members = read_file(procs)) != NULL) {
                for (rest = members; (token = strsep(&rest, SPACE)) != NULL;)
                    if (*token != '\0') {
                        found = 1;
                        kill((pid_t)atoi(token), SIGKILL);
                    }
                free(members);
            }
            free(procs);
            free(groups[i]);
        }
        free(groups);
        if (!found)
            break;
        nanosleep(&pause, NULL);
    }
    groups = cgroups_named(roots, prefix, &count);
    for (i = 0; i < count; i++) {
        for (tries = 0; tries < 50 && rmdir(groups[i]) != 0 && errno != ENOENT; tries++)
            nanosleep(&pause, NULL);
        free(groups[i]);
    }
    free(groups);
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const pids_files[] = {"pids.events", NULL};
    static const char *const memory_files[] = {"memory.events", "memory.oom_control", NULL};
    struct sigaction handling = {0};
    sigset_t blocked, children;
    char *message = grab(MAX_MESSAGE), *setup = NULL, *cgroup_procs, *memory_procs, why[256], said[512], ended[128];
    char control_buffer[CMSG_SPACE(3 * sizeof(int))];
    struct iovec vector = {message, MAX_MESSAGE};
    struct msghdr header = {0};
    struct cmsghdr *cmsg;
    struct request *waiting = NULL, **last = &waiting, *request;
    struct rusage usage;
    struct pollfd polls[2];
    int type, joined[2], subreaper, number, status, fds[3];
    socklen_t type_size = sizeof type;
    size_t fd_count, i;
    ssize_t size;
    pid_t pid;
    char *end;

    if (argc == 5 && strcmp(argv[1], "--sentinel") == 0)
        return sentinel(argv[2], argv[3], argv[4]);
    if (argc < 2 || (control = (int)strtol(argv[1], &end, 10), *end != '\0' || end == argv[1]))
        return 1;
    if (fcntl(control, F_SETFD, FD_CLOEXEC) < 0 || getsockopt(control, SOL_SOCKET, SO_TYPE, &type, &type_size) < 0)
        return 1;
    /* SIGCHLD at its default (not ignored: its children are waited for) and read from a signalfd; SIGPIPE
       and SIGXFSZ blocked, so that a pipe the harness closed early is an error, not this process's end. */
    handling.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &handling, NULL);
    sigaction(SIGPIPE, &handling, NULL);
    sigaction(SIGXFSZ, &handling, NULL);
    if (sigaction(SIGINT, NULL, &handling) == 0 && handling.sa_handler == SIG_DFL) { /* as Python's start does */
        handling.sa_handler = interrupted;
        sigaction(SIGINT, &handling, NULL);
    }
    sigemptyset(&children);
    sigaddset(&children, SIGCHLD);
    blocked = children;
    sigaddset(&blocked, SIGPIPE);
    sigaddset(&blocked, SIGXFSZ);
    sigprocmask(SIG_BLOCK, &blocked, NULL);
    polls[0] = (struct pollfd){control, POLLIN, 0};
    polls[1] = (struct pollfd){signalfd(-1, &children, SFD_NONBLOCK | SFD_CLOEXEC), POLLIN, 0};
    devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (polls[1].fd < 0 || devnull < 0)
        return 1;
    sigemptyset(&reset);
    for (number = 1; number < NSIG; number++)
        if ((number < 32 || number > 33) && sigaction(number, NULL, &handling) == 0 && handling.sa_handler == SIG_IGN)
            sigaddset(&reset, number);
    if ((cwd = getcwd(NULL, 0)) == NULL)
        return 1;

    while ((size = recv(control, message, MAX_MESSAGE, 0)) < 0 && errno == EINTR)
        ;
    if (size < 0)
        snprintf(why, sizeof why, "[Errno %d] %s", errno, strerror(errno));
    if (size >= 0) { /* kept: env and the paths point into it */
        setup = memcpy(grab((size_t)size + 1), message, (size_t)size);
    }
    if (size < 0 || set_up(setup, (size_t)size, &cgroup_procs, &memory_procs, joined, why, sizeof why) < 0) {
        size = snprintf(said, sizeof said, "E0:the spawner could not set itself up: %s", why);
        say(said, (size_t)size);
        return 0;
    }
    /* Have the orphans of what it starts reparented here, not to the machine's init: reaped here at once, a
       dead dealer's zombies never count against the next one's process limit. */
    subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    refused = count_open(joined[0] ? cgroup_procs : NULL, pids_files, "max");
    killed = count_open(joined[1] ? memory_procs : NULL, memory_files, "oom_kill");
    said[0] = 'J', said[1] = joined[0] ? '1' : '0', said[2] = joined[1] ? '1' : '0';
    say(said, 3);
    if (!joined[0])
        cgroup_procs = NULL; /* the one that lists the trees */
    if (!joined[1])
        memory_procs = NULL; /* the one that bounds their memory */

    for (;;) {
        if (poll(polls, 2, -1) < 0)
            continue;
        if (polls[1].revents) {
            struct signalfd_siginfo info;
            while (read(polls[1].fd, &info, sizeof info) > 0)
                ;
        }
        /* orphans (reparented here) too, whether or not a process of its own is live */
        while ((pid = wait4(-1, &status, WNOHANG, &usage)) != 0) {
            if (pid < 0 && errno == EINTR)
                continue;
            if (pid < 0)
                break;
            for (i = 0; i < live_count && live[i] != pid; i++)
                ;
            if (i == live_count)
                continue; /* an orphan of what it started: reaped, nothing to say */
            live[i] = live[--live_count];
            if (live_count == 0 && !(subreaper && childless()))
                kill_everything(NULL, 0, cgroup_procs); /* what it left, escaped or not: gone before the X */
            snprintf(ended, sizeof ended, "X%d %d %ld", (int)pid, status, usage.ru_maxrss);
            while (waiting != NULL && live_count == 0) {
                request = waiting;
                if ((waiting = request->next) == NULL)
                    last = &waiting;
                answer(request->message, request->size, request->fds, request->fd_count, ended);
                free(request);
                ended[0] = '\0';
            }
            if (ended[0] != '\0')
                say(ended, strlen(ended));
        }
        if (!polls[0].revents)
            continue;
        header.msg_iov = &vector;
        header.msg_iovlen = 1;
        header.msg_control = control_buffer;
        header.msg_controllen = CMSG_LEN(3 * sizeof(int)); /* as Python's recvmsg asks: room for 3 */
        size = recvmsg(control, &header, MSG_CMSG_CLOEXEC);
        if (size < 0 && errno == EINTR)
            continue;
        if (size <= 0)
            break; /* the harness process ended */
        fd_count = 0;
        for (cmsg = CMSG_FIRSTHDR(&header); cmsg != NULL; cmsg = CMSG_NXTHDR(&header, cmsg))
            if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
                for (i = 0; i + sizeof(int) <= cmsg->cmsg_len - CMSG_LEN(0) && fd_count < 3; i += sizeof(int))
                    memcpy(&fds[fd_count++], CMSG_DATA(cmsg) + i, sizeof(int));
        if (live_count > 0 && cgroup_procs != NULL) { /* one process tree at a time in the cgroup */
            request = grab(sizeof *request + (size_t)size);
            *request = (struct request){NULL, (size_t)size, fd_count, {0}};
            memcpy(request->fds, fds, sizeof fds);
            memcpy(request->message, message, (size_t)size);
            *last = request;
            last = &request->next;
        } else {
            answer(message, (size_t)size, fds, fd_count, "");
        }
    }
    kill_everything(live, live_count, cgroup_procs);
    if (refused.fd >= 0)
        close(refused.fd);
    if (killed.fd >= 0)
        close(killed.fd);
    if (joined[0])
        leave(cgroup_procs);
    if (joined[1] && !(joined[0] && strcmp(memory_procs, cgroup_procs) == 0))
        leave(memory_procs);
    _exit(0);
}
