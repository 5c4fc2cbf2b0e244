/* Output files written safely: temporary + rename for regular files only,
 * in place for devices, FIFOs and sockets, symbolic links followed (see the header). */
#include "seer/safe_write.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_LINK_HOPS 40

static void release(seer_safe_file *sf) {
    free(sf->path);
    free(sf->target);
    free(sf->tmp);
    sf->path = sf->target = sf->tmp = NULL;
    sf->f = NULL;
}

static int fail(seer_safe_file *sf, const char *path, int e, seer_error *err) {
    seer_error_set(err, "cannot write %s: %s", path, strerror(e));
    release(sf);
    return -1;
}

/* The file a chain of symbolic links ends at (that file need not exist:
 * writing through a dangling link creates its target, as the shell does). */
static char *follow_links(const char *path) {
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        char link[PATH_MAX];
        ssize_t n = hops < MAX_LINK_HOPS ? readlink(cur, link, sizeof link - 1) : -1;
        if (n < 0) {
            if (hops >= MAX_LINK_HOPS) errno = ELOOP;
            free(cur);
            return NULL;
        }
        link[n] = '\0';
        const char *slash = strrchr(cur, '/');
        size_t dir_len = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1; /* relative to the link's folder */
        char *next = malloc(dir_len + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dir_len);
            memcpy(next + dir_len, link, (size_t)n + 1);
        } else {
            errno = ENOMEM;
        }
        free(cur);
        cur = next;
    }
    return NULL;
}

/* A Unix socket cannot be open()ed (ENXIO): a stream connection to its
 * listener is what writing "to the socket" means. */
static int connect_socket(const char *target) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t len = strlen(target);
    if (len >= sizeof addr.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(addr.sun_path, target, len + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (const struct sockaddr *)&addr, sizeof addr) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        fd = -1;
    }
    return fd;
}

/* A new file beside target, created exclusively (the umask applies). */
static int make_temporary(seer_safe_file *sf) {
    static unsigned counter;
    size_t len = strlen(sf->target) + 48;
    if (!(sf->tmp = malloc(len))) {
        errno = ENOMEM;
        return -1;
    }
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
        snprintf(sf->tmp, len, "%s.tmp-%ld-%u", sf->target, (long)getpid(), n);
        int fd = open(sf->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

int seer_safe_open(seer_safe_file *sf, const char *path, seer_error *err) {
    memset(sf, 0, sizeof *sf);
    if (!path || !*path) return fail(sf, "(no path)", ENOENT, err);
    if (!(sf->path = strdup(path))) return fail(sf, path, ENOMEM, err);
    if (!strcmp(path, "-")) {
        sf->f = stdout;
        return 0;
    }
    if (!(sf->target = follow_links(path))) return fail(sf, path, errno, err);
    struct stat st;
    const bool exists = stat(sf->target, &st) == 0;
    if (!exists && errno != ENOENT) return fail(sf, path, errno, err);
    int fd;
    if (exists && S_ISDIR(st.st_mode)) {
        return fail(sf, path, EISDIR, err);
    } else if (exists && !S_ISREG(st.st_mode)) {
        /* A device, FIFO or socket: its readers expect the bytes, not a new file. */
        fd = S_ISSOCK(st.st_mode) ? connect_socket(sf->target) : open(sf->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) return fail(sf, path, errno, err);
    } else {
        fd = make_temporary(sf);
        if (fd < 0) return fail(sf, path, errno, err);
        if (exists) {
            if (fchown(fd, st.st_uid, st.st_gid) != 0) { /* only root may give it away: keep ours */
            }
            if (fchmod(fd, st.st_mode & 07777) != 0) {
                int e = errno;
                close(fd);
                unlink(sf->tmp);
                return fail(sf, path, e, err);
            }
        }
    }
    if (!(sf->f = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        if (sf->tmp) unlink(sf->tmp);
        return fail(sf, path, e, err);
    }
    return 0;
}

const char *seer_safe_write_path(const seer_safe_file *sf) {
    return sf->f == stdout ? NULL : sf->tmp ? sf->tmp : sf->target;
}

/* The rename itself is durable only once the folder is synced. */
static void sync_folder(const char *target) {
    const char *slash = strrchr(target, '/');
    char *dir = slash ? strndup(target, slash == target ? 1 : (size_t)(slash - target)) : strdup(".");
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int seer_safe_commit(seer_safe_file *sf, seer_error *err) {
    if (!sf->f) return fail(sf, sf->path ? sf->path : "(no path)", EBADF, err);
    int e = fflush(sf->f) != 0 ? errno : ferror(sf->f) ? EIO : 0;
    if (sf->f == stdout) {
        clearerr(stdout);
        if (e) return fail(sf, "standard output", e, err);
        release(sf);
        return 0;
    }
    if (!e && sf->tmp && fsync(fileno(sf->f)) != 0) e = errno;
    if (fclose(sf->f) != 0 && !e) e = errno;
    sf->f = NULL;
    if (!e && sf->tmp && rename(sf->tmp, sf->target) != 0) e = errno;
    if (e) {
        if (sf->tmp) unlink(sf->tmp);
        return fail(sf, sf->path, e, err);
    }
    if (sf->tmp) sync_folder(sf->target);
    release(sf);
    return 0;
}

void seer_safe_abandon(seer_safe_file *sf) {
    if (sf->f && sf->f != stdout) fclose(sf->f);
    if (sf->f == stdout) fflush(stdout);
    if (sf->tmp) unlink(sf->tmp);
    release(sf);
}

bool seer_safe_is_regular(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
