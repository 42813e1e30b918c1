/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* output.c - a temporary file that atomically replaces its target when committed */
#define _GNU_SOURCE 1 /* O_TMPFILE, AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "sbat/output.h"

#include "util/diag.h"
#include "file/identity.h"
#include "file/io_table.h"
#include "file/mapped.h"
#include "file/path.h"
#include "file/content.h"
#include "file/stale.h"
#include "file/timestamps.h"

/*
 * Life of an output: open (a nameless or named temporary in the target's
 * directory, held as dir_fd), written by the caller, then either aborted
 * (the temporary goes) or committed: metadata, fsync, the target re-checked
 * (its identity and content), a name for a nameless temporary, its
 * identity checked once more, renameat over it, fsync of dir_fd. A
 * named temporary is listed in `temps` from its creation to its rename or
 * removal, so a signal handler can remove it (sbat_output_remove_temporaries).
 */
struct sbat_output {
	int fd;
	const sbat_io *io;
	int dir_fd;                  /* -1 for a scratch output */
	char *name;                  /* the target's name in dir_fd */
	char tmp_name[NAME_MAX + 1]; /* "" while the temporary is nameless */
	int slot;                    /* its entry in temps, or -1 */
	int src_fd;                  /* replace: the file being replaced (metadata source), else -1 */
	struct stat src_st;          /* replace: that file when it was opened */
	mode_t mode;                 /* new file: its permission bits */
	int no_sync;                 /* commit skips both fsyncs */
	int check_sum;               /* replace: commit compares the file's content with sum */
	uint64_t sum;                /* that content's sum (sbat_content_sum) */
	size_t sum_len;              /* and its length */
};

/* Named temporaries not yet renamed or removed; read by signal handlers. */
#define MAX_TEMPS 8
static struct {
	volatile sig_atomic_t active;
	int dir_fd;
	char name[NAME_MAX + 1];
} temps[MAX_TEMPS];

/* Set, with signals blocked, in the same step as a rename into place; read by signal handlers. */
static volatile sig_atomic_t committed;

void
sbat_output_remove_temporaries(void)
{
	int i;

	for (i = 0; i < MAX_TEMPS; i++)
		if (temps[i].active) {
			unlinkat(temps[i].dir_fd, temps[i].name, 0);
			temps[i].active = 0;
		}
}

int
sbat_output_committed(void)
{
	return committed != 0;
}

static void
block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

static void
restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* List o->tmp_name for signal handlers; call with signals blocked. */
static void
register_temp(sbat_output *o)
{
	int i;

	for (i = 0; i < MAX_TEMPS; i++)
		if (!temps[i].active) {
			temps[i].dir_fd = o->dir_fd;
			memcpy(temps[i].name, o->tmp_name, sizeof(temps[i].name));
			temps[i].active = 1;
			o->slot = i;
			return;
		}
}

static void
unregister_temp(sbat_output *o)
{
	if (o->slot >= 0)
		temps[o->slot].active = 0;
	o->slot = -1;
}

/*
 * ".NAME.XXXXXX" with random letters, the NAME part shortened so that the
 * whole always fits NAME_MAX, whatever the target's name.
 */
static void
make_temp_name(sbat_output *o)
{
	static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long counter;
	struct timespec ts;
	unsigned long r;
	size_t n = strlen(o->name), i;

	if (n > NAME_MAX - 8)
		n = NAME_MAX - 8;
	clock_gettime(CLOCK_REALTIME, &ts);
	r = (unsigned long)ts.tv_nsec ^ ((unsigned long)ts.tv_sec << 20) ^ ((unsigned long)getpid() << 8) ^
	    (++counter * 2654435761ul);
	o->tmp_name[0] = '.';
	memcpy(o->tmp_name + 1, o->name, n);
	o->tmp_name[n + 1] = '.';
	for (i = 0; i < 6; i++) {
		r = r * 6364136223846793005ul + 1442695040888963407ul;
		o->tmp_name[n + 2 + i] = letters[(r >> 33) % (sizeof(letters) - 1)];
	}
	o->tmp_name[n + 8] = '\0';
}

/* Create a named temporary (mode 0600) in dir_fd; listed for signal handlers from the start. */
static int
create_named_temp(sbat_output *o)
{
	sigset_t old;
	int i, err = EEXIST;

	for (i = 0; i < 100 && err == EEXIST; i++) {
		block_signals(&old);
		make_temp_name(o);
		o->fd = openat(o->dir_fd, o->tmp_name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		err = errno;
		if (o->fd >= 0) {
			register_temp(o);
			stale_mark_live(o->fd);
		}
		restore_signals(&old);
		if (o->fd >= 0)
			return 0;
	}
	o->tmp_name[0] = '\0';
	errno = err;
	return -1;
}

static int
open_tmpfile(const sbat_output *o)
{
	if (o->io && o->io->open_tmpfile)
		return o->io->open_tmpfile(o->dir_fd);
#ifdef O_TMPFILE
	return openat(o->dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
	errno = EOPNOTSUPP;
	return -1;
#endif
}

static sbat_output *
output_free(sbat_output *o)
{
	if (o) {
		unregister_temp(o);
		if (o->fd >= 0)
			close(o->fd);
		if (o->src_fd >= 0)
			close(o->src_fd);
		if (o->dir_fd >= 0)
			close(o->dir_fd);
		free(o->name);
		free(o);
	}
	return NULL;
}

static sbat_output *
output_new(const sbat_io *io)
{
	sbat_output *o = calloc(1, sizeof(*o));

	if (o) {
		o->fd = -1;
		o->dir_fd = -1;
		o->src_fd = -1;
		o->slot = -1;
		o->io = io;
	}
	return o;
}

/* The temporary, nameless (O_TMPFILE) where the file system allows. */
static sbat_err
open_temp(sbat_output *o, sbat_diag *d)
{
	o->fd = open_tmpfile(o);
	if (o->fd >= 0)
		stale_mark_live(o->fd); /* before it has a name another run could see */
	if (o->fd < 0 && create_named_temp(o) != 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot create a temporary file next to it", errno);
	return SBAT_OK;
}

/* Take over dir_fd; name is copied. */
static sbat_err
output_start(sbat_output *o, int dir_fd, const char *name, sbat_diag *d)
{
	o->dir_fd = dir_fd;
	o->name = strdup(name);
	if (!o->name)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	return open_temp(o, d);
}

sbat_err
sbat_output_open_replace(const sbat_mapped_file *image, const sbat_io *io, sbat_output **ret, sbat_diag *d)
{
	sbat_output *o;
	sbat_err e;
	int dir_fd;

	if (image->dir_fd < 0 || !image->name)
		return diag_fail(d, SBAT_E_IO, "internal error: image was not opened for replacing");
	o = output_new(io);
	if (!o)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	o->src_st = image->st;
	o->src_fd = fcntl(image->fd, F_DUPFD_CLOEXEC, 3);
	dir_fd = fcntl(image->dir_fd, F_DUPFD_CLOEXEC, 3);
	if (o->src_fd < 0 || dir_fd < 0) {
		int err = errno;

		if (dir_fd >= 0)
			close(dir_fd);
		output_free(o);
		return diag_fail_errno(d, SBAT_E_IO, "cannot duplicate a file descriptor", err);
	}
	/* the image is locked: temporaries of earlier runs for it that nobody holds are stale */
	stale_remove(dir_fd, image->name);
	e = output_start(o, dir_fd, image->name, d);
	if (e) {
		output_free(o);
		return e;
	}
	*ret = o;
	return SBAT_OK;
}

/* The umask, from the "Umask:" line of /proc/self/status (Linux 4.7 on). 0, or -1 when it cannot be read. */
static int
umask_from_proc(mode_t *ret)
{
	char buf[4096], *line, *end;
	unsigned long v;
	ssize_t n;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	line = strstr(buf, "\nUmask:");
	if (!line)
		return -1;
	v = strtoul(line + 7, &end, 8);
	if (end == line + 7 || v > 0777)
		return -1;
	*ret = (mode_t)v;
	return 0;
}

/*
 * The permission bits a new file in dir_fd is denied: the umask, read
 * without setting it (umask(2) can only set it, and setting it for a
 * moment changes what the caller's other threads create meanwhile). Where
 * /proc is not mounted, a nameless probe file created there with mode 0777
 * tells what the kernel withholds (the umask, or what the directory's
 * default ACL allows); without O_TMPFILE either, 077: the new file is given
 * no permission that the umask could have withheld.
 */
static mode_t
new_file_mask(int dir_fd)
{
	mode_t m = 077;

	if (umask_from_proc(&m) == 0)
		return m;
#ifdef O_TMPFILE
	{
		struct stat st;
		int fd = openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0777);

		if (fd >= 0) {
			if (fstat(fd, &st) == 0)
				m = 0777 & ~(st.st_mode & 0777);
			close(fd);
		}
	}
#else
	(void)dir_fd;
#endif
	return m;
}

/*
 * Check the name a new output will take: a regular file (to be replaced) or
 * nothing yet, and short enough for the directory. Before any data is written.
 */
static sbat_err
check_new_target(int dir_fd, const char *name, sbat_diag *d)
{
	struct stat st;
	long max = fpathconf(dir_fd, _PC_NAME_MAX);

	if (max > 0 && strlen(name) > (size_t)max)
		return diag_fail_errno(d, SBAT_E_IO, "cannot create", ENAMETOOLONG);
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode))
			return diag_fail(d, SBAT_E_NOT_REGULAR, "is a symbolic link; refusing to replace it");
		if (!S_ISREG(st.st_mode))
			return diag_fail(d, SBAT_E_NOT_REGULAR, "not a regular file");
	} else if (errno != ENOENT) {
		return diag_fail_errno(d, SBAT_E_IO, "cannot create", errno);
	}
	return SBAT_OK;
}

sbat_err
sbat_output_open_new(const char *path, mode_t mode, const sbat_io *io, sbat_output **ret, sbat_diag *d)
{
	sbat_output *o;
	const char *name;
	sbat_err e;
	int dir_fd;

	dir_fd = path_open_directory(path, &name);
	if (dir_fd < 0)
		return errno == EINVAL ? diag_fail(d, SBAT_E_NOT_REGULAR, "not a regular file") :
		                         diag_fail_errno(d, SBAT_E_IO, "cannot open its directory", errno);
	e = check_new_target(dir_fd, name, d);
	if (e) {
		close(dir_fd);
		return e;
	}
	o = output_new(io);
	if (!o) {
		close(dir_fd);
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	}
	/* as cp without -p: no setuid, setgid or sticky bit, and the umask applies */
	o->mode = mode & 0777 & ~new_file_mask(dir_fd);
	e = output_start(o, dir_fd, name, d);
	if (e) {
		output_free(o);
		return e;
	}
	*ret = o;
	return SBAT_OK;
}

sbat_err
sbat_output_open_scratch(const sbat_io *io, sbat_output **ret, sbat_diag *d)
{
	sbat_output *o = output_new(io);
	const char *tmpdir = getenv("TMPDIR");
	FILE *f;
	int err;

	if (!o)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	if (tmpdir && *tmpdir) {
		/* in $TMPDIR, as mktemp(1) has it: named for an instant, then unlinked */
		char name[PATH_MAX];
		int fd;

		if ((size_t)snprintf(name, sizeof(name), "%s/sbat-add-XXXXXX", tmpdir) >= sizeof(name)) {
			err = ENAMETOOLONG;
		} else if ((fd = mkstemp(name)) < 0) {
			err = errno;
		} else {
			unlink(name);
			o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
			err = errno;
			close(fd);
		}
		if (o->fd < 0) {
			output_free(o);
			return diag_fail_errno(d, SBAT_E_IO, "cannot create a scratch file in $TMPDIR", err);
		}
		*ret = o;
		return SBAT_OK;
	}
	/* tmpfile() is already unlinked; keep a dup of its descriptor */
	f = tmpfile();
	o->fd = f ? fcntl(fileno(f), F_DUPFD_CLOEXEC, 3) : -1;
	err = errno; /* before fclose can change it */
	if (f)
		fclose(f);
	if (o->fd < 0) {
		output_free(o);
		return diag_fail_errno(d, SBAT_E_IO, "cannot create a scratch file", err);
	}
	*ret = o;
	return SBAT_OK;
}

void
sbat_output_set_sync(sbat_output *o, int sync)
{
	o->no_sync = !sync;
}

int
sbat_output_fd(const sbat_output *o)
{
	return o->fd;
}

const sbat_io *
sbat_output_io(const sbat_output *o)
{
	return o->io;
}

void
sbat_output_abort(sbat_output *o)
{
	if (!o)
		return;
	if (o->tmp_name[0])
		unlinkat(o->dir_fd, o->tmp_name, 0);
	output_free(o);
}

/* Give a nameless temporary a name in the target's directory. */
static int
link_tmpfile(sbat_output *o)
{
	char proc[64];
	int i;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (i = 0; i < 100; i++) {
		sigset_t old;
		int r;

		block_signals(&old);
		make_temp_name(o);
		r = linkat(AT_FDCWD, proc, o->dir_fd, o->tmp_name, AT_SYMLINK_FOLLOW);
#ifdef AT_EMPTY_PATH
		if (r != 0 && errno == ENOENT)
			r = linkat(o->fd, "", o->dir_fd, o->tmp_name, AT_EMPTY_PATH);
#endif
		if (r == 0)
			register_temp(o);
		restore_signals(&old);
		if (r == 0)
			return 0;
		if (errno != EEXIST) {
			o->tmp_name[0] = '\0';
			return -1;
		}
	}
	o->tmp_name[0] = '\0';
	errno = EEXIST;
	return -1;
}

/*
 * Every extended attribute of src onto dst: POSIX ACLs (system.posix_acl_*),
 * security labels, capabilities, user attributes. A file system without
 * extended attributes (vfat) has none to copy. 0, or -1 with errno.
 */
static int
copy_xattrs(int src, int dst)
{
	char *list = NULL, *value = NULL, *name;
	ssize_t n, v;
	size_t cap = 0;
	int err = 0;

	n = flistxattr(src, NULL, 0);
	if (n < 0)
		return errno == ENOTSUP || errno == EOPNOTSUPP ? 0 : -1;
	if (n == 0)
		return 0;
	list = malloc((size_t)n);
	if (!list)
		return errno = ENOMEM, -1;
	n = flistxattr(src, list, (size_t)n);
	if (n < 0)
		err = errno;
	for (name = list; !err && name < list + n; name += strlen(name) + 1) {
		v = fgetxattr(src, name, NULL, 0);
		if (v < 0) {
			err = errno;
			break;
		}
		if ((size_t)v > cap) {
			char *p = realloc(value, (size_t)v);

			if (!p) {
				err = ENOMEM;
				break;
			}
			value = p;
			cap = (size_t)v;
		}
		v = fgetxattr(src, name, value, (size_t)v);
		if (v < 0 || fsetxattr(dst, name, value, (size_t)v, 0) != 0)
			err = errno;
	}
	free(list);
	free(value);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/*
 * A file created in a directory with a default ACL inherits it; the
 * replacement must carry exactly the original's ACLs, so those the original
 * lacks go, and the mode is set again (removing an access ACL leaves its
 * mask in the group bits). 0, or -1 with errno.
 */
static int
drop_inherited_acls(int src, int dst, mode_t mode)
{
	static const char *const names[] = { "system.posix_acl_access", "system.posix_acl_default" };
	size_t i;
	int removed = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (fgetxattr(src, names[i], NULL, 0) >= 0 || fgetxattr(dst, names[i], NULL, 0) < 0)
			continue;
		if (fremovexattr(dst, names[i]) != 0) {
			if (errno == ENODATA || errno == ENOTSUP || errno == EOPNOTSUPP)
				continue;
			return -1;
		}
		removed = 1;
	}
	return removed ? fchmod(dst, mode) : 0;
}

/* 1 if the file being replaced is the one opened and is as it was then. */
static int
source_unchanged(const sbat_output *o, int *ret_gone)
{
	struct stat now, named;

	*ret_gone = 0;
	if (fstat(o->src_fd, &now) != 0)
		return 0;
	if (fstatat(o->dir_fd, o->name, &named, AT_SYMLINK_NOFOLLOW) != 0) {
		*ret_gone = errno == ENOENT;
		return 0;
	}
	return sbat_file_unchanged(&now, &o->src_st) && sbat_same_file(&named, &o->src_st);
}

/* The new file takes the metadata it must have; "what" names the step that failed. */
static int
apply_metadata(sbat_output *o, const char **what)
{
	if (o->src_fd < 0) {
		*what = "cannot set the mode of the temporary file";
		return fchmod(o->fd, o->mode);
	}
	/*
	 * Owner first: chown clears setuid/setgid and capabilities, set again
	 * below. A file that cannot keep its owner (not root, NFS root_squash)
	 * is not replaced: it would change hands, with its setuid bits.
	 */
	*what = "cannot give the new file the owner and group of the original; nothing was written";
	if ((o->src_st.st_uid != geteuid() || o->src_st.st_gid != getegid()) &&
	    fchown(o->fd, o->src_st.st_uid, o->src_st.st_gid) != 0)
		return -1;
	*what = "cannot set the mode of the temporary file";
	if (fchmod(o->fd, o->src_st.st_mode & 07777) != 0)
		return -1;
	*what = "cannot copy the extended attributes (ACLs, labels) to the temporary file";
	if (copy_xattrs(o->src_fd, o->fd) != 0)
		return -1;
	*what = "cannot remove the ACL the temporary file inherited from its directory";
	return drop_inherited_acls(o->src_fd, o->fd, o->src_st.st_mode & 07777);
}

/* 1 if the file being replaced still holds the content summed when it was read; 0 with *err set when unreadable. */
static int
content_unchanged(const sbat_output *o, int *err)
{
	uint64_t sum;

	*err = 0;
	if (content_sum_fd(o->io, o->src_fd, o->sum_len, &sum) != 0) {
		*err = errno;
		return 0;
	}
	return sum == o->sum;
}

/*
 * fsync a directory held by dir_fd. One opened with O_PATH (write and
 * search permission only) is reopened for reading; where that is refused
 * too, its fsync cannot be made by this user and is skipped.
 */
static int
sync_directory(int dir_fd)
{
	int fd, r, err;

	if (fsync(dir_fd) == 0)
		return 0;
	if (errno != EBADF)
		return -1;
	fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == EACCES ? 0 : -1;
	r = fsync(fd);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

int
output_syncs(const sbat_output *o)
{
	return o->dir_fd >= 0 && !o->no_sync;
}

int
output_expect_source(sbat_output *o, size_t len, uint64_t sum)
{
	if (o->src_fd < 0)
		return 0;
	o->check_sum = 1;
	o->sum = sum;
	o->sum_len = len;
	return 1;
}

/*
 * 1 when from now on every write to the file being replaced shows in its
 * time stamps (timestamps_can_hide of its stat when opened, with the clock
 * now): on ext4 with whole-second times the second of its change time is
 * over, elsewhere a recent modification time is no longer recent.
 */
static int
stamps_show_writes(const sbat_output *o)
{
	struct timespec now;
	struct statfs sf;

	if (clock_gettime(CLOCK_REALTIME, &now) != 0 || fstatfs(o->src_fd, &sf) != 0)
		return 0;
	return !timestamps_can_hide(&o->src_st, 1, (uint32_t)sf.f_type, &now);
}

/*
 * Before the rename: the file to replace must still be the one read, under
 * the same name, and with `content` its content must be the same too. If
 * not, the output is abandoned.
 */
static sbat_err
check_source(sbat_output *o, int content, sbat_diag *d)
{
	int err, gone;

	if (o->src_fd >= 0 && !source_unchanged(o, &gone)) {
		sbat_output_abort(o);
		return diag_fail(d, SBAT_E_CHANGED,
		                 gone ? "the file was removed or renamed while being edited; nothing was written" :
		                        "the file was modified or replaced while being edited; nothing was written");
	}
	/* time stamps can be too coarse to see a write (FAT 2 s, ext4 -I 128 1 s): the content tells */
	if (content && o->check_sum && !content_unchanged(o, &err)) {
		sbat_output_abort(o);
		return err ? diag_fail_errno(d, SBAT_E_IO, "cannot read the file again to compare it", err) :
		             diag_fail(d, SBAT_E_CHANGED,
		                       "the file was modified while being edited; nothing was written");
	}
	return SBAT_OK;
}

/*
 * --no-sync over an existing file: exchange the temporary's name and the
 * target's (as atomic for readers as a rename), then remove the old file
 * from the temporary's name. A rename over a file with data makes ext4
 * (auto_da_alloc) and btrfs start writing the new file back at once, which
 * --no-sync does not ask for; an exchange starts nothing. What cannot be
 * removed (a directory put there meanwhile) is exchanged back. 0 when done
 * (*ret_kept: the old file could not be removed, nor put back, and keeps
 * the temporary's name), -1 when there was no exchange: the caller renames.
 */
static int
exchange_into_place(sbat_output *o, int *ret_kept)
{
	*ret_kept = 0;
	if (!o->no_sync || io_exchangeat(o->io, o->dir_fd, o->tmp_name, o->dir_fd, o->name) != 0)
		return -1;
	if (unlinkat(o->dir_fd, o->tmp_name, 0) == 0 || errno == ENOENT)
		return 0;
	if (io_exchangeat(o->io, o->dir_fd, o->tmp_name, o->dir_fd, o->name) == 0)
		return -1;
	*ret_kept = 1;
	return 0;
}

/*
 * Rename the temporary file over the target, signals blocked: a handler sees
 * the temporary listed and the target old, or neither and the target new.
 * -1 with errno set when the rename fails (the temporary is still listed);
 * 1 when the new file is in place but the old one keeps the temporary's name.
 */
static int
rename_into_place(sbat_output *o)
{
	sigset_t old;
	int err, kept = 0;

	block_signals(&old);
	if (exchange_into_place(o, &kept) != 0 && io_renameat(o->io, o->dir_fd, o->tmp_name, o->dir_fd, o->name) != 0) {
		err = errno;
		restore_signals(&old);
		errno = err;
		return -1;
	}
	unregister_temp(o);
	committed = 1;
	restore_signals(&old);
	if (!kept)
		o->tmp_name[0] = '\0';
	return kept;
}

/* The new file is in place, the old one kept the temporary's name: o is freed. */
static sbat_err
old_left_behind(sbat_output *o, sbat_diag *d)
{
	output_free(o);
	return diag_fail(d, SBAT_E_IO,
	                 "the new file is in place, but the old one cannot be removed: it is left behind in the "
	                 "directory under the temporary's name");
}

/*
 * The new file's metadata, its fsync, and the file being replaced checked
 * (check_source), its content as late as it must be: after the fsync,
 * unless a write from now on shows in the time stamps, which are checked
 * again just before the rename; then before it, while the device writes.
 * Both while a nameless temporary has no name: a SIGKILL then leaves
 * nothing. 0 when done; 1 with *e when the check refused (o is freed);
 * -1 with errno and *what when a step failed.
 */
static int
flush_checked(sbat_output *o, const char **what, sbat_err *e, sbat_diag *d)
{
	int early;

	if (apply_metadata(o, what) != 0)
		return -1;
	early = o->check_sum && !o->no_sync && stamps_show_writes(o);
	if (early && (*e = check_source(o, 1, d)) != SBAT_OK)
		return 1;
	*what = "cannot flush the temporary file to disk";
	if (!o->no_sync && io_fsync(o->io, o->fd) != 0)
		return -1;
	*e = check_source(o, !early, d);
	return *e != SBAT_OK;
}

sbat_err
sbat_output_commit(sbat_output *o, sbat_diag *d)
{
	const char *what;
	sbat_err e;
	int err;

	if (o->dir_fd < 0) {
		output_free(o);
		return diag_fail(d, SBAT_E_IO, "a scratch output cannot be committed");
	}
	err = flush_checked(o, &what, &e, d);
	if (err > 0)
		return e;
	if (err < 0)
		goto fail;
	what = "cannot name the temporary file";
	if (!o->tmp_name[0] && link_tmpfile(o) != 0)
		goto fail;
	/* the content read took a while: the name must still be the file read */
	e = check_source(o, 0, d);
	if (e != SBAT_OK)
		return e;
	what = "cannot rename the temporary file into place";
	err = rename_into_place(o);
	if (err < 0)
		goto fail;
	if (err > 0)
		return old_left_behind(o, d);
	/* make the rename itself durable */
	if (!o->no_sync && sync_directory(o->dir_fd) != 0) {
		err = errno;
		output_free(o);
		return diag_fail_errno(d, SBAT_E_IO,
		                       "the new file is in place, but its directory could not be flushed to disk: "
		                       "after a crash the old file may be back",
		                       err);
	}
	output_free(o);
	return SBAT_OK;

fail:
	err = errno;
	if (o->tmp_name[0] && unlinkat(o->dir_fd, o->tmp_name, 0) != 0 && errno != ENOENT) {
		/* an append-only directory, say: the temporary stays */
		output_free(o);
		return diag_fail_errno(d, SBAT_E_IO,
		                       "cannot put the new file in place, and its temporary file cannot be removed: "
		                       "it is left behind in the directory (append-only?)",
		                       err);
	}
	o->tmp_name[0] = '\0';
	sbat_output_abort(o);
	return diag_fail_errno(d, SBAT_E_IO, what, err);
}

sbat_err
sbat_file_write_atomic(const char *path, mode_t mode, const uint8_t *buf, size_t len, sbat_diag *d)
{
	sbat_mapped_file *image = NULL;
	sbat_output *o;
	struct stat st;
	sbat_err e;
	int err;

	/* replace what is there, keeping its metadata; else a new file */
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		e = sbat_file_open_image(path, SBAT_FILE_MAX_SIZE, 0, &image, d);
		if (!e)
			e = sbat_output_open_replace(image, NULL, &o, d);
	} else {
		e = sbat_output_open_new(path, mode, NULL, &o, d);
	}
	if (e) {
		sbat_file_unmap(image);
		return e;
	}
	if (io_pwrite_all(o->io, o->fd, buf, len, 0) != 0) {
		err = errno;
		sbat_output_abort(o);
		sbat_file_unmap(image);
		return diag_fail_errno(d, SBAT_E_IO, "cannot write the temporary file", err);
	}
	e = sbat_output_commit(o, d);
	sbat_file_unmap(image);
	return e;
}
