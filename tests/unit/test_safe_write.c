/* seer_safe_open / seer_safe_commit on real files: a new and an existing
 * regular file (replaced whole, its mode kept), symbolic links (target
 * replaced, link kept), /dev/null and /dev/full or, as root, device nodes
 * made here (written in place, still devices), a FIFO and a Unix socket
 * read by another process, "-" (standard output), a read-only folder (one-line error,
 * nothing left behind); and seer_mkdirs (mkdir -p). Run as root,
 * everything runs again as the user nobody in a forked child; the
 * read-only folder is only checked unprivileged (root writes anywhere). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seer/safe_write.h"
#include "testlib.h"

#define NOBODY 65534

static char *path_in(const char *dir, const char *name) {
    static char buf[8][4096];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

static void put_file(const char *path, const char *text, mode_t mode) {
    FILE *f = fopen(path, "w");
    CHECK_MSG(f != NULL, "cannot create %s: %s", path, strerror(errno));
    if (!f) return;
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
}

static bool has_text(const char *path, const char *want) {
    char got[256] = "";
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    fclose(f);
    return strcmp(got, want) == 0;
}

/* seer_safe_open + one string + seer_safe_commit; the error in err. */
static int write_text(const char *path, const char *text, seer_error *err) {
    seer_safe_file sf;
    if (seer_safe_open(&sf, path, err) != 0) return -1;
    fputs(text, sf.f);
    return seer_safe_commit(&sf, err);
}

static int count_temporaries(const char *dir) {
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".tmp") != NULL;
    if (d) closedir(d);
    return n;
}

static void check_one_line_error(const seer_error *err, const char *path, const char *reason) {
    CHECK_MSG(strstr(err->msg, path) && strstr(err->msg, reason) && !strchr(err->msg, '\n'),
              "error '%s' should name %s and '%s' on one line", err->msg, path, reason);
}

static void regular_files(const char *dir) {
    seer_error err = {{0}};
    const char *fresh = path_in(dir, "fresh.txt");
    CHECK(write_text(fresh, "new\n", &err) == 0);
    CHECK(has_text(fresh, "new\n"));
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    CHECK_MSG(stat(fresh, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask), "new file mode %o, umask %o",
              st.st_mode & 0777, mask);

    /* replaced whole (a new inode: readers of the old one see the old bytes), mode kept */
    const char *old = path_in(dir, "old.txt");
    put_file(old, "old\n", 0640);
    struct stat before, after;
    stat(old, &before);
    CHECK(write_text(old, "replaced\n", &err) == 0);
    CHECK(has_text(old, "replaced\n"));
    CHECK(stat(old, &after) == 0 && S_ISREG(after.st_mode));
    CHECK_MSG((after.st_mode & 07777) == 0640, "mode %o, was 0640", after.st_mode & 07777);
    CHECK_MSG(after.st_ino != before.st_ino, "an existing regular file should be replaced by rename");

    /* given up: the old file intact, nothing left */
    seer_safe_file sf;
    CHECK(seer_safe_open(&sf, old, &err) == 0);
    if (sf.f) fputs("torn", sf.f);
    seer_safe_abandon(&sf);
    CHECK(has_text(old, "replaced\n"));

    CHECK(write_text(dir, "x", &err) == -1);
    check_one_line_error(&err, dir, "Is a directory");
    CHECK(write_text(path_in(dir, "no/such/folder/x"), "x", &err) == -1);
    check_one_line_error(&err, "no/such/folder/x", "No such file");
    CHECK_MSG(count_temporaries(dir) == 0, "temporary files left in %s", dir);
}

static void symbolic_links(const char *dir) {
    seer_error err = {{0}};
    const char *real = path_in(dir, "real.txt"), *link = path_in(dir, "link.txt");
    put_file(real, "old\n", 0600);
    CHECK(symlink("real.txt", link) == 0);
    CHECK(write_text(link, "through the link\n", &err) == 0);
    struct stat st;
    char to[64] = "";
    CHECK_MSG(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the link was replaced by a file");
    CHECK(readlink(link, to, sizeof to - 1) > 0 && !strcmp(to, "real.txt"));
    CHECK(has_text(real, "through the link\n"));
    CHECK(stat(real, &st) == 0 && (st.st_mode & 0777) == 0600);

    /* relative to the link's own folder, through two links */
    mkdir(path_in(dir, "sub"), 0755);
    CHECK(symlink("../link.txt", path_in(dir, "sub/up")) == 0);
    CHECK(write_text(path_in(dir, "sub/up"), "two hops\n", &err) == 0);
    CHECK(has_text(real, "two hops\n"));
    CHECK(lstat(path_in(dir, "sub/up"), &st) == 0 && S_ISLNK(st.st_mode));

    /* a dangling link: its target is created, as `echo > link` does */
    CHECK(symlink("made.txt", path_in(dir, "dangling")) == 0);
    CHECK(write_text(path_in(dir, "dangling"), "made\n", &err) == 0);
    CHECK(has_text(path_in(dir, "made.txt"), "made\n"));
    CHECK(lstat(path_in(dir, "dangling"), &st) == 0 && S_ISLNK(st.st_mode));

    CHECK(symlink("loop", path_in(dir, "loop")) == 0);
    CHECK(write_text(path_in(dir, "loop"), "x", &err) == -1);
    check_one_line_error(&err, "loop", "Too many levels");
    CHECK_MSG(count_temporaries(dir) == 0 && count_temporaries(path_in(dir, "sub")) == 0, "temporaries left");
}

/* Writes to a character device and checks it still is one and that
 * /dev/full's error is one line naming it. */
static void check_device(const char *null_dev, const char *full_dev) {
    seer_error err = {{0}};
    struct stat st;
    CHECK_MSG(write_text(null_dev, "into the void\n", &err) == 0, "%s", err.msg);
    CHECK_MSG(lstat(null_dev, &st) == 0 && S_ISCHR(st.st_mode), "%s is no longer a character device", null_dev);
    CHECK(write_text(full_dev, "x", &err) == -1);
    check_one_line_error(&err, full_dev, "No space left");
    CHECK_MSG(lstat(full_dev, &st) == 0 && S_ISCHR(st.st_mode), "%s is no longer a character device", full_dev);
}

/* Root writes to nodes of its own (a regression must not replace the
 * machine's /dev/null: root could); anyone else to /dev/null itself. */
static void devices(const char *dir, bool root) {
    if (!root) {
        check_device("/dev/null", "/dev/full");
        CHECK_MSG(count_temporaries("/dev") == 0, "a temporary was left in /dev");
        return;
    }
    const char *null_dev = path_in(dir, "null-node"), *full_dev = path_in(dir, "full-node");
    if (mknod(null_dev, S_IFCHR | 0666, makedev(1, 3)) != 0 || mknod(full_dev, S_IFCHR | 0666, makedev(1, 7)) != 0) {
        printf("SKIP device nodes: mknod: %s\n", strerror(errno));
    } else {
        check_device(null_dev, full_dev);
        printf("device nodes: checked on mknod copies of /dev/null and /dev/full; the real ones as nobody\n");
    }
    unlink(null_dev);
    unlink(full_dev);
    CHECK_MSG(count_temporaries(dir) == 0, "temporaries left in %s", dir);
}

/* Another process reads the FIFO into a file; ours writes to it. */
static void fifo(const char *dir) {
    seer_error err = {{0}};
    const char *fifo = path_in(dir, "pipe"), *got = path_in(dir, "from-pipe.txt");
    CHECK(mkfifo(fifo, 0600) == 0);
    pid_t reader = fork();
    if (reader == 0) {
        alarm(10); /* a writer that replaced the FIFO never comes */
        int in = open(fifo, O_RDONLY), out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        char b[256];
        for (ssize_t n; in >= 0 && (n = read(in, b, sizeof b)) > 0;)
            if (write(out, b, (size_t)n) != n) _exit(1);
        _exit(in >= 0 && out >= 0 && close(out) == 0 ? 0 : 1);
    }
    alarm(15); /* nor does a reader that was left waiting */
    CHECK(write_text(fifo, "through the pipe\n", &err) == 0);
    alarm(0);
    int status = 0;
    if (waitpid(reader, &status, 0) != reader || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        CHECK_MSG(false, "the FIFO's reader got nothing (status %d)", status);
        kill(reader, SIGKILL);
    }
    CHECK(has_text(got, "through the pipe\n"));
    struct stat st;
    CHECK_MSG(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
    CHECK_MSG(count_temporaries(dir) == 0, "temporaries left in %s", dir);
}

/* A Unix socket: its listener (another process) gets the bytes, the
 * socket stays (it used to fail: open() on a socket is ENXIO). */
static void unix_socket(const char *dir) {
    seer_error err = {{0}};
    const char *sock = path_in(dir, "sock"), *got = path_in(dir, "from-sock.txt");
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    CHECK(listener >= 0 && bind(listener, (struct sockaddr *)&addr, sizeof addr) == 0 && listen(listener, 1) == 0);
    pid_t reader = fork();
    if (reader == 0) {
        alarm(10); /* a writer that never connects */
        int in = accept(listener, NULL, NULL), out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        char b[256];
        for (ssize_t n; in >= 0 && (n = read(in, b, sizeof b)) > 0;)
            if (write(out, b, (size_t)n) != n) _exit(1);
        _exit(in >= 0 && out >= 0 && close(out) == 0 ? 0 : 1);
    }
    close(listener);
    alarm(15);
    CHECK_MSG(write_text(sock, "through the socket\n", &err) == 0, "socket: %s", err.msg);
    alarm(0);
    int status = 0;
    if (waitpid(reader, &status, 0) != reader || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        CHECK_MSG(false, "the socket's reader got nothing (status %d)", status);
        kill(reader, SIGKILL);
    }
    CHECK(has_text(got, "through the socket\n"));
    struct stat st;
    CHECK_MSG(lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode), "the socket was replaced");
    CHECK_MSG(count_temporaries(dir) == 0, "temporaries left in %s", dir);
}

static void standard_output(const char *dir) {
    seer_error err = {{0}};
    bool had_dash = access("-", F_OK) == 0;
    const char *captured = path_in(dir, "stdout.txt");
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), fd = open(captured, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, STDOUT_FILENO);
    close(fd);
    int rc = write_text("-", "to standard output\n", &err);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    CHECK_MSG(rc == 0, "-: %s", err.msg);
    CHECK(has_text(captured, "to standard output\n"));
    CHECK_MSG(had_dash || access("-", F_OK) != 0, "a file named '-' was created");
    seer_safe_file sf;
    CHECK(seer_safe_open(&sf, "-", &err) == 0 && sf.f == stdout && seer_safe_write_path(&sf) == NULL);
    seer_safe_abandon(&sf);
}

/* Unprivileged only: root ignores the folder's permissions. */
static void read_only_folder(const char *dir) {
    seer_error err = {{0}};
    const char *ro = path_in(dir, "read-only");
    CHECK(mkdir(ro, 0755) == 0);
    put_file(path_in(ro, "kept.txt"), "kept\n", 0644);
    CHECK(chmod(ro, 0555) == 0);
    CHECK(write_text(path_in(ro, "new.txt"), "x", &err) == -1);
    check_one_line_error(&err, "read-only/new.txt", "Permission denied");
    CHECK(write_text(path_in(ro, "kept.txt"), "x", &err) == -1);
    check_one_line_error(&err, "read-only/kept.txt", "Permission denied");
    CHECK(has_text(path_in(ro, "kept.txt"), "kept\n"));
    CHECK(access(path_in(ro, "new.txt"), F_OK) != 0);
    CHECK_MSG(count_temporaries(ro) == 0, "temporaries left in the read-only folder");
    chmod(ro, 0755);
}

/* seer_mkdirs: mkdir -p, one-line errors. */
static void folders(const char *dir, bool root) {
    seer_error err = {{0}};
    struct stat st;
    CHECK_MSG(seer_mkdirs(path_in(dir, "a/b//c/"), 0755, &err) == 0, "%s", err.msg);
    CHECK(stat(path_in(dir, "a/b/c"), &st) == 0 && S_ISDIR(st.st_mode));
    CHECK(seer_mkdirs(path_in(dir, "a/b"), 0755, &err) == 0); /* already there */
    put_file(path_in(dir, "a/file"), "x", 0644);
    CHECK(seer_mkdirs(path_in(dir, "a/file/d"), 0755, &err) == -1);
    check_one_line_error(&err, "a/file", "Not a directory");
    if (!root) {
        CHECK(chmod(path_in(dir, "a/b"), 0555) == 0);
        CHECK(seer_mkdirs(path_in(dir, "a/b/no/more"), 0755, &err) == -1);
        check_one_line_error(&err, "a/b/no", "Permission denied");
        chmod(path_in(dir, "a/b"), 0755);
    }
}

static void run_all(const char *dir, bool root) {
    folders(dir, root);
    regular_files(dir);
    symbolic_links(dir);
    devices(dir, root);
    fifo(dir);
    unix_socket(dir);
    standard_output(dir);
    if (root) printf("read-only folder: checked as nobody below (root writes anywhere)\n");
    else read_only_folder(dir);
}

/* Everything again as nobody, in a folder nobody owns. */
static void as_nobody(const char *base) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/nobody", base);
    if (chmod(base, 0755) != 0 || mkdir(dir, 0755) != 0 || chown(dir, NOBODY, NOBODY) != 0) {
        CHECK_MSG(false, "cannot prepare %s for nobody: %s", dir, strerror(errno));
        return;
    }
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        if (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0) {
            printf("SKIP as nobody: cannot drop privileges: %s\n", strerror(errno));
            _exit(0);
        }
        run_all(dir, false);
        fflush(stdout);
        _exit(test_failures ? 1 : 0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "as nobody: failed (status %d)", status);
}

int main(void) {
    const bool root = geteuid() == 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/own", test_tmpdir());
    mkdir(dir, 0755);
    run_all(dir, root);
    if (root) as_nobody(test_tmpdir());
    TEST_MAIN_END();
}
