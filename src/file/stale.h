/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* stale.h - named temporaries that a killed run left behind, and how a live one is told from them */
#ifndef SBAT_FILE_STALE_H
#define SBAT_FILE_STALE_H

/* Hold a lock on a temporary for as long as it is open, so that no other run takes it for stale. */
void stale_mark_live(int fd);

/*
 * Remove from dir_fd the temporaries ".NAME.XXXXXX" of target `name` that a
 * run killed by SIGKILL left: a regular file with one link, owned by this
 * user, unchanged for a minute, that no process holds locked. Anything else
 * is left alone; a directory that cannot be listed is not searched.
 */
void stale_remove(int dir_fd, const char *name);

#endif
