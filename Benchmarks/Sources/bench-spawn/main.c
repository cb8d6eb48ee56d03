// bench-spawn RESULT STDIN STDOUT STDERR PROGRAM [ARGS...]
//
// Runs PROGRAM with its standard streams redirected ("-" leaves one as it
// is), waits for it and writes "<status> <wall seconds> <peak RSS KiB>" to
// RESULT. Why a separate, tiny C process: Linux carries a parent's resident
// set into a child's ru_maxrss across fork/vfork + exec (the old address
// space's high-water mark is kept at exec), so a peak measured from the
// bench process itself would include the bench's own memory. This process
// is about 1 MiB, so what wait4 reports here is the program's own peak (or
// its largest descendant's).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int redirect(const char *path, int fd, int flags) {
    if (strcmp(path, "-") == 0) return 0;
    int opened = open(path, flags, 0644);
    if (opened < 0 || dup2(opened, fd) < 0) return -1;
    close(opened);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: bench-spawn RESULT STDIN STDOUT STDERR PROGRAM [ARGS...]\n");
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
        if (redirect(argv[2], 0, O_RDONLY) || redirect(argv[3], 1, O_WRONLY | O_CREAT | O_TRUNC)
            || redirect(argv[4], 2, O_WRONLY | O_CREAT | O_TRUNC)) _exit(126);
        execv(argv[5], argv + 5);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
    FILE *result = fopen(argv[1], "w");
    if (result == NULL) return 2;
    fprintf(result, "%d %.9f %ld\n", code,
            (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9, usage.ru_maxrss);
    fclose(result);
    return 0;
}
