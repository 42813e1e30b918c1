/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* grubcfg.c - grub.cfg read as GRUB's script lexer and menu code would, to find its kernels; nothing is run */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/grubcfg.h"

#include "boot/grubcfg.h"
#include "util/diag.h"

/*
 * Limits: grub-mkconfig writes a few hundred lines with words of a few
 * hundred bytes; a file far past these is not one GRUB was given to boot.
 */
#define SCRATCH (64u * 1024u) /* the words of one command, raw and expanded */
#define MAX_WORDS 128
#define MAX_VARS 128
#define MAX_NAME 64
#define MAX_DEPTH 32
#define MAX_ENTRIES 4096
#define MAX_INITRDS 64
#define MAX_NOTES 64

/*
 * A device that a search found is kept in a variable's value between
 * DEV_OPEN and DEV_CLOSE, so that ($root) and $prefix carry it; a value
 * that cannot be known is UNKNOWN. Input bytes below 0x20 (but tab, CR and
 * LF) are read as '?', so a file cannot forge these.
 */
#define DEV_OPEN '\001'
#define DEV_CLOSE '\002'
#define UNKNOWN "\003"

typedef struct word {
	const char *raw; /* quotes removed, $variables as written */
	const char *exp; /* variables expanded */
	int unknown;     /* uses a variable the file does not set (or one whose value is unknown) */
	int quoted;      /* had a quote or an escape */
} word;

typedef struct var {
	const char *name, *value;
} var;

enum block_kind { B_ENTRY, B_IF, B_LOOP, B_FUNC, B_GROUP };

typedef struct block {
	enum block_kind kind;
	size_t entry;  /* B_ENTRY: its index */
	size_t n_vars; /* B_ENTRY: the variables when it was opened, restored when it closes */
	var *saved;
	unsigned line;
	int kernel_in_if; /* B_ENTRY: a kernel line was inside an if */
	int truth;        /* B_IF: the branch being read is 1 taken, 0 not taken, -1 not known */
	int taken;        /* B_IF: an earlier branch is known to be taken */
} block;

typedef struct blob {
	struct blob *next;
} blob;

/* What the caller gets: the public part first. */
typedef struct cfg_impl {
	sbat_grub_cfg pub;
	blob *blobs;
	sbat_grub_entry *entries;
	sbat_grub_note notes[MAX_NOTES];
} cfg_impl;

typedef struct parser {
	const uint8_t *buf;
	size_t len, pos;
	unsigned line; /* newlines read */
	int stopped;   /* GRUB reads no further (a quote never closed, blocks too deep) */
	cfg_impl *cfg;
	int nomem;
	var vars[MAX_VARS];
	size_t n_vars;
	block stack[MAX_DEPTH];
	size_t depth;
	unsigned positions[MAX_DEPTH + 1]; /* the next position in each open menu */
	size_t cap_entries;
	const char *prefix_raw;
	/* the command being lexed */
	word words[MAX_WORDS];
	size_t n_words;
	unsigned cmd_line;
	char scratch[SCRATCH];
	size_t used;
	int overflow; /* the command did not fit: it is not followed */
	/*
	 * The variables as the whole file leaves them (a first reading): an
	 * entry's body runs at boot, after the file has run, so a top-level
	 * entry starts from these (menu.c runs the entry's source then)
	 */
	var final_vars[MAX_VARS];
	size_t n_final;
	int has_final;
	const grubcfg_opts *o;
} parser;

/* ------------------------------------------------ memory and notes */

static void *
p_alloc(parser *p, size_t n)
{
	blob *b;

	if (p->nomem || n > SIZE_MAX / 2)
		return NULL;
	b = malloc(sizeof(blob) + n + 1);
	if (!b) {
		p->nomem = 1;
		return NULL;
	}
	b->next = p->cfg->blobs;
	p->cfg->blobs = b;
	memset(b + 1, 0, n + 1);
	return b + 1;
}

static char *
p_strdup(parser *p, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	char *d = s ? p_alloc(p, n) : NULL;

	if (d)
		memcpy(d, s, n);
	return d;
}

static void
note(parser *p, unsigned line, const char *what)
{
	sbat_grub_cfg *c = &p->cfg->pub;

	if (c->n_notes < MAX_NOTES) {
		p->cfg->notes[c->n_notes].line = line;
		p->cfg->notes[c->n_notes].what = what;
		c->n_notes++;
	} else {
		c->notes_dropped++;
	}
}

/* ------------------------------------------------ variables */

static var *
var_find(parser *p, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < p->n_vars; i++)
		if (strlen(p->vars[i].name) == n && memcmp(p->vars[i].name, name, n) == 0)
			return &p->vars[i];
	return NULL;
}

static void
var_set(parser *p, const char *name, const char *value)
{
	var *v = var_find(p, name, strlen(name));
	const char *copy = p_strdup(p, value);

	if (!copy)
		return;
	if (!v && p->n_vars < MAX_VARS) {
		const char *n = p_strdup(p, name);

		if (!n)
			return;
		v = &p->vars[p->n_vars++];
		v->name = n;
	}
	if (v)
		v->value = copy;
}

static void
var_unset(parser *p, const char *name)
{
	var *v = var_find(p, name, strlen(name));

	if (v)
		*v = p->vars[--p->n_vars];
}

/* The value that stands for device id. */
static void
var_set_device(parser *p, const char *name, const char *id)
{
	char v[MAX_NAME + 3];
	size_t n = strlen(id);

	if (n > MAX_NAME) {
		var_set(p, name, UNKNOWN);
		return;
	}
	v[0] = DEV_OPEN;
	memcpy(v + 1, id, n);
	v[n + 1] = DEV_CLOSE;
	v[n + 2] = '\0';
	var_set(p, name, v);
}

/* ------------------------------------------------ the lexer */

static int
peek(const parser *p, size_t ahead)
{
	return ahead < p->len - p->pos ? p->buf[p->pos + ahead] : -1;
}

/* The next input byte (-1 at the end); control bytes read as '?'. */
static int
take(parser *p)
{
	int c = peek(p, 0);

	if (c < 0)
		return c;
	p->pos++;
	if (c == '\n')
		p->line++;
	if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
		c = '?';
	return c;
}

static int
name_char(int c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

/* Two strings built side by side in the scratch area: the raw word and its expansion. */
typedef struct builder {
	char raw[SCRATCH / 4], exp[SCRATCH / 4];
	size_t n_raw, n_exp;
	int unknown, quoted, cut;
} builder;

static void
put_raw(builder *b, char c)
{
	if (b->n_raw < sizeof(b->raw) - 1)
		b->raw[b->n_raw++] = c;
	else
		b->cut = 1;
}

static void
put_exp(builder *b, char c)
{
	if (b->n_exp < sizeof(b->exp) - 1)
		b->exp[b->n_exp++] = c;
	else
		b->cut = 1;
}

static void
put_both(builder *b, char c)
{
	put_raw(b, c);
	put_exp(b, c);
}

/* The name of a $reference at the cursor (past the '$') into name; 0 when there is none. */
static int
lex_var_name(parser *p, char *name, int *braced)
{
	size_t n = 0, i;
	int c = peek(p, 0);

	*braced = c == '{';
	if (*braced) {
		for (i = 1; i <= MAX_NAME && peek(p, i) >= 0 && peek(p, i) != '}' && peek(p, i) != '\n'; i++)
			;
		if (peek(p, i) != '}' || i == 1)
			return 0;
		take(p);
		while (peek(p, 0) != '}')
			name[n++] = (char)take(p);
		take(p);
	} else if (name_char(c, 1)) {
		while (name_char(peek(p, 0), 0) && n < MAX_NAME)
			name[n++] = (char)take(p);
	} else if ((c >= '0' && c <= '9') || c == '?' || c == '#' || c == '*' || c == '@') {
		name[n++] = (char)take(p);
	} else {
		return 0;
	}
	name[n] = '\0';
	return 1;
}

/* A $reference after a '$' just read: its text to raw, its value to exp. 0 when the '$' is literal. */
static int
lex_variable(parser *p, builder *b)
{
	char name[MAX_NAME + 1];
	const char *s;
	int braced;
	var *v;

	if (!lex_var_name(p, name, &braced))
		return 0;
	put_raw(b, '$');
	if (braced)
		put_raw(b, '{');
	for (s = name; *s; s++)
		put_raw(b, *s);
	if (braced)
		put_raw(b, '}');
	v = var_find(p, name, strlen(name));
	if (!v || strcmp(v->value, UNKNOWN) == 0)
		b->unknown = 1;
	else
		for (s = v->value; *s; s++)
			put_exp(b, *s);
	return 1;
}

/* Inside "...": up to the closing quote; 0 when the file ends first. */
static int
lex_dquote(parser *p, builder *b)
{
	for (;;) {
		int c = take(p), d;

		if (c < 0)
			return 0;
		if (c == '"')
			return 1;
		if (c == '\\' && ((d = peek(p, 0)) == '"' || d == '\\' || d == '$' || d == '\n')) {
			take(p);
			if (d != '\n')
				put_both(b, (char)d);
			continue;
		}
		if (c == '$' && lex_variable(p, b))
			continue;
		put_both(b, (char)c);
	}
}

/* Inside '...': everything up to the closing quote; 0 when the file ends first. */
static int
lex_squote(parser *p, builder *b)
{
	int c;

	while ((c = take(p)) != '\'') {
		if (c < 0)
			return 0;
		put_both(b, (char)c);
	}
	return 1;
}

static int
word_end(int c)
{
	return c < 0 || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';';
}

/* One word into b; 0 when a quote is never closed. */
static int
lex_word(parser *p, builder *b)
{
	while (!word_end(peek(p, 0))) {
		unsigned line = p->line + 1;
		int c = take(p), ok = 1;

		if (c == '\\') {
			b->quoted = 1;
			c = take(p);
			if (c >= 0 && c != '\n')
				put_both(b, (char)c);
			continue;
		}
		if (c == '\'' || c == '"') {
			b->quoted = 1;
			ok = c == '\'' ? lex_squote(p, b) : lex_dquote(p, b);
		} else if (c != '$' || !lex_variable(p, b)) {
			put_both(b, (char)c);
		}
		if (!ok) {
			note(p, line, "a quote that is never closed: GRUB reads nothing after it");
			return 0;
		}
	}
	return 1;
}

/* Keep the word in b as the command's next one. */
static void
store_word(parser *p, builder *b)
{
	size_t need = b->n_raw + b->n_exp + 2;
	word *w;

	if (b->cut || p->n_words == MAX_WORDS || need > SCRATCH - p->used) {
		p->overflow = 1;
		return;
	}
	w = &p->words[p->n_words++];
	memcpy(p->scratch + p->used, b->raw, b->n_raw);
	p->scratch[p->used + b->n_raw] = '\0';
	w->raw = p->scratch + p->used;
	p->used += b->n_raw + 1;
	memcpy(p->scratch + p->used, b->exp, b->n_exp);
	p->scratch[p->used + b->n_exp] = '\0';
	w->exp = p->scratch + p->used;
	p->used += b->n_exp + 1;
	w->unknown = b->unknown;
	w->quoted = b->quoted;
}

/* The next command's words; 0 at the end of what GRUB reads. */
static int
lex_command(parser *p, builder *b)
{
	p->n_words = 0;
	p->used = 0;
	p->overflow = 0;
	while (!p->stopped) {
		int c = peek(p, 0);

		if (c < 0)
			break;
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';') {
			take(p);
			if ((c == '\n' || c == ';') && p->n_words)
				return 1;
			continue;
		}
		if (c == '#') {
			while (peek(p, 0) >= 0 && peek(p, 0) != '\n')
				take(p);
			continue;
		}
		if (c == '\\' && peek(p, 1) == '\n') {
			take(p);
			take(p);
			continue;
		}
		if (p->n_words == 0)
			p->cmd_line = p->line + 1;
		b->n_raw = b->n_exp = 0;
		b->unknown = b->quoted = b->cut = 0;
		if (!lex_word(p, b)) {
			p->stopped = 1;
			return 0;
		}
		store_word(p, b);
	}
	return p->n_words > 0 && !p->stopped;
}

static void run_command(parser *p);

/* ------------------------------------------------ files, devices and paths */

static int
is_word(const word *w, const char *s)
{
	return !w->quoted && strcmp(w->raw, s) == 0;
}

/* The device a "(...)" or $root value names, when a search found it; NULL otherwise. */
static const char *
device_id(parser *p, const char *s, size_t n)
{
	char *id;

	if (p->o->memdisk && n == 7 && memcmp(s, "memdisk", 7) == 0)
		return GRUBCFG_MEMDISK;
	if (n < 2 || s[0] != DEV_OPEN || s[n - 1] != DEV_CLOSE || memchr(s + 1, DEV_CLOSE, n - 2))
		return NULL;
	id = p_alloc(p, n - 2);
	if (id)
		memcpy(id, s + 1, n - 2);
	return id;
}

/* Resolve a device and path as GRUB reads a file name: "(DEVICE)/path", or "/path" on $root. */
static void
resolve_exp(parser *p, const char *exp, int unknown, sbat_grub_file *f)
{
	const char *path = exp;
	var *root;

	f->device = f->path = NULL;
	if (unknown) {
		f->why = "it uses a variable that this file does not set";
		return;
	}
	if (exp[0] == '(') {
		const char *close = strchr(exp, ')');

		if (!close) {
			f->why = "a device without its closing parenthesis";
			return;
		}
		f->device = device_id(p, exp + 1, (size_t)(close - exp - 1));
		if (!f->device) {
			f->why = "a device named by the firmware's disk numbering, not by a file-system UUID";
			return;
		}
		path = close + 1;
	} else {
		root = var_find(p, "root", 4);
		f->device = root ? device_id(p, root->value, strlen(root->value)) : NULL;
		if (!f->device) {
			f->why = "its root device is not one a search by file-system UUID found";
			return;
		}
	}
	if (path[0] != '/') {
		f->why = "not an absolute path";
		return;
	}
	f->path = p_strdup(p, path);
	f->why = f->path ? NULL : "out of memory";
}

static void
resolve_file(parser *p, const word *w, sbat_grub_file *f)
{
	f->word = p_strdup(p, w->raw);
	f->line = p->cmd_line;
	resolve_exp(p, w->exp, w->unknown, f);
}

/* ------------------------------------------------ blocks */

/* The innermost open menuentry or submenu, or NULL. */
static block *
current_entry(parser *p)
{
	size_t i;

	for (i = p->depth; i > 0; i--)
		if (p->stack[i - 1].kind == B_ENTRY)
			return &p->stack[i - 1];
	return NULL;
}

/* 1 when an if or a loop is open inside the innermost entry (or at the top, when there is none). */
static int
conditional(const parser *p)
{
	size_t i;

	for (i = p->depth; i > 0 && p->stack[i - 1].kind != B_ENTRY; i--)
		if ((p->stack[i - 1].kind == B_IF && p->stack[i - 1].truth != 1) || p->stack[i - 1].kind == B_LOOP)
			return 1;
	return 0;
}

/* 1 inside a branch of an if that is known not to run. */
static int
dead(const parser *p)
{
	size_t i;

	for (i = 0; i < p->depth; i++)
		if (p->stack[i].kind == B_IF && p->stack[i].truth == 0)
			return 1;
	return 0;
}

/* 1 when a loop is open inside the innermost entry. */
static int
in_loop(const parser *p)
{
	size_t i;

	for (i = p->depth; i > 0 && p->stack[i - 1].kind != B_ENTRY; i--)
		if (p->stack[i - 1].kind == B_LOOP)
			return 1;
	return 0;
}

static block *
push(parser *p, enum block_kind kind)
{
	block *b;

	if (p->depth == MAX_DEPTH) {
		note(p, p->cmd_line, "blocks nested more than 32 deep: not followed further");
		p->stopped = 1;
		return NULL;
	}
	b = &p->stack[p->depth++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->line = p->cmd_line;
	return b;
}

/* Close the innermost block; an entry gets back the variables it started with. */
static void
pop(parser *p)
{
	block *b = &p->stack[--p->depth];

	if (b->kind == B_ENTRY && b->saved) {
		memcpy(p->vars, b->saved, b->n_vars * sizeof(var));
		p->n_vars = b->n_vars;
	}
}

static int
menu_level(const parser *p)
{
	size_t i;
	int level = 0;

	for (i = 0; i < p->depth; i++)
		level += p->stack[i].kind == B_ENTRY;
	return level;
}

static sbat_grub_entry *
new_entry(parser *p)
{
	sbat_grub_cfg *c = &p->cfg->pub;

	if (c->n_entries == p->cap_entries) {
		size_t cap = p->cap_entries ? p->cap_entries * 2 : 16;
		sbat_grub_entry *e;

		if (cap > MAX_ENTRIES) {
			note(p, p->cmd_line, "more than 4096 menu entries: the rest are not followed");
			return NULL;
		}
		e = realloc(p->cfg->entries, cap * sizeof(*e));
		if (!e) {
			p->nomem = 1;
			return NULL;
		}
		p->cfg->entries = e;
		c->entries = e;
		p->cap_entries = cap;
	}
	memset(&p->cfg->entries[c->n_entries], 0, sizeof(sbat_grub_entry));
	return &p->cfg->entries[c->n_entries++];
}

/* menuentry/submenu options that take a value (grub-core/commands/menuentry.c) */
static int
option_takes_value(const char *w)
{
	static const char *const with_value[] = { "--class", "--users", "--hotkey", "--id", "--source" };
	size_t i;

	for (i = 0; i < sizeof(with_value) / sizeof(with_value[0]); i++)
		if (strcmp(w, with_value[i]) == 0)
			return 1;
	return 0;
}

/* Title and id of a menuentry or submenu from words[first..last). */
static void
entry_names(parser *p, size_t first, size_t last, sbat_grub_entry *e)
{
	size_t i;

	for (i = first; i < last; i++) {
		const word *w = &p->words[i];
		int id_option = is_word(w, "--id") || strcmp(w->raw, "$menuentry_id_option") == 0 ||
		                strcmp(w->raw, "${menuentry_id_option}") == 0;

		if (id_option && i + 1 < last) {
			e->id = p_strdup(p, p->words[++i].exp);
		} else if (!w->quoted && strncmp(w->raw, "--id=", 5) == 0) {
			e->id = p_strdup(p, w->exp + 5);
		} else if (!w->quoted && strncmp(w->raw, "--", 2) == 0) {
			i += option_takes_value(w->raw) && !strchr(w->raw, '=');
		} else if (!e->title) {
			e->title = p_strdup(p, w->exp);
		}
	}
	if (!e->title)
		e->title = "";
}

/* The first unquoted "{" after words[k]; 0 when there is none. */
static size_t
open_brace(const parser *p, size_t k)
{
	size_t i;

	for (i = k + 1; i < p->n_words; i++)
		if (is_word(&p->words[i], "{"))
			return i;
	return 0;
}

/* An entry's block: its variables are restored when it closes. */
static int
push_entry(parser *p, block *outer, int submenu)
{
	sbat_grub_entry *e = new_entry(p);
	int level = menu_level(p), cond = conditional(p) || (outer && p->cfg->entries[outer->entry].conditional);
	block *b = e ? push(p, B_ENTRY) : NULL;

	if (!b) {
		if (e)
			p->cfg->pub.n_entries--;
		return 0;
	}
	b->entry = p->cfg->pub.n_entries - 1;
	b->n_vars = p->n_vars;
	b->saved = p_alloc(p, p->n_vars * sizeof(var));
	if (b->saved)
		memcpy(b->saved, p->vars, p->n_vars * sizeof(var));
	if (!outer && p->has_final) {
		memcpy(p->vars, p->final_vars, p->n_final * sizeof(var));
		p->n_vars = p->n_final;
	}
	e->parent = outer ? (int)outer->entry : -1;
	e->is_submenu = submenu;
	e->conditional = cond;
	e->line = p->cmd_line;
	e->position = p->positions[level]++;
	p->positions[level + 1] = 0;
	return 1;
}

/* "menuentry ... {" or "submenu ... {" at words[k]; what follows the "{" on the line is its first command. */
static void
open_entry(parser *p, size_t k)
{
	block *outer = current_entry(p);
	size_t brace = open_brace(p, k);

	if (!brace) {
		note(p, p->cmd_line, "a menuentry without { on its line: not followed");
		return;
	}
	if (outer && !p->cfg->entries[outer->entry].is_submenu) {
		note(p, p->cmd_line, "a menuentry inside a menuentry: not followed");
		push(p, B_FUNC);
		return;
	}
	if (!push_entry(p, outer, is_word(&p->words[k], "submenu")))
		return;
	entry_names(p, k + 1, brace, &p->cfg->entries[p->cfg->pub.n_entries - 1]);
	if (brace + 1 < p->n_words) {
		memmove(p->words, p->words + brace + 1, (p->n_words - brace - 1) * sizeof(word));
		p->n_words -= brace + 1;
		run_command(p);
	}
}

/* "}" */
static void
close_block(parser *p)
{
	block *top = p->depth ? &p->stack[p->depth - 1] : NULL;

	if (!top) {
		note(p, p->cmd_line, "a } without a {");
		return;
	}
	if (top->kind == B_IF || top->kind == B_LOOP) {
		note(p, p->cmd_line, "a } inside an if or a loop that is not closed");
		return;
	}
	pop(p);
}

/* Inside a function body (not followed): only its braces count. */
static void
skip_in_function(parser *p)
{
	if (is_word(&p->words[0], "}"))
		pop(p);
	else if (is_word(&p->words[p->n_words - 1], "{"))
		push(p, B_GROUP);
}

static int
in_function(const parser *p)
{
	size_t i;

	for (i = 0; i < p->depth; i++)
		if (p->stack[i].kind == B_FUNC)
			return 1;
	return 0;
}

/* fi, done: close the innermost block of that kind. */
static void
end_block(parser *p, enum block_kind kind, const char *stray)
{
	if (p->depth && p->stack[p->depth - 1].kind == kind)
		pop(p);
	else
		note(p, p->cmd_line, stray);
}

/* then, else, do: inside the right block? */
static void
mid_block(parser *p, enum block_kind kind, const char *stray)
{
	if (!p->depth || p->stack[p->depth - 1].kind != kind)
		note(p, p->cmd_line, stray);
}

/* ------------------------------------------------ commands */

/* NAME=VALUE (from `set` or on its own); 0 when the word is not one. */
static int
assignment(parser *p, const word *w, int top_level)
{
	sbat_grub_cfg *c = &p->cfg->pub;
	const char *eq = strchr(w->raw, '=');
	char name[MAX_NAME + 1];
	size_t n = eq ? (size_t)(eq - w->raw) : 0, i;

	if (!eq || n == 0 || n > MAX_NAME || !name_char(w->raw[0], 1))
		return 0;
	for (i = 0; i < n; i++)
		if (!name_char(w->raw[i], 0))
			return 0;
	memcpy(name, w->raw, n);
	name[n] = '\0';
	if (strncmp(w->exp, name, n) != 0 || w->exp[n] != '=')
		return 0;
	if (top_level && strcmp(name, "default") == 0) {
		if (strcmp(eq + 1, "${next_entry}") == 0 || strcmp(eq + 1, "$next_entry") == 0) {
			c->next_entry_line = p->cmd_line;
		} else {
			c->default_value = p_strdup(p, eq + 1);
			c->default_line = p->cmd_line;
		}
	} else if (top_level && strcmp(name, "timeout") == 0) {
		c->timeout = p_strdup(p, eq + 1);
		c->timeout_line = p->cmd_line;
	} else if (top_level && strcmp(name, "prefix") == 0) {
		p->prefix_raw = p_strdup(p, eq + 1);
	}
	var_set(p, name, w->unknown ? UNKNOWN : w->exp + n + 1);
	return 1;
}

/* 1 when s could be a file-system UUID (what grub-probe prints: hex digits and dashes, or more). */
static int
uuid_like(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
		      s[n] == '-'))
			return 0;
	return n > 0 && n <= MAX_NAME;
}

/* search [--fs-uuid|--file|--label] [--set[=VAR]] [--hint...] KEY, search.fs_uuid KEY [VAR] (search_wrap.c) */
static void
search_command(parser *p, size_t k)
{
	const char *cmd = p->words[k].raw, *target = NULL;
	int by_uuid = strcmp(cmd, "search.fs_uuid") == 0, fixed = strncmp(cmd, "search.", 7) == 0;
	size_t i, key = 0;

	for (i = k + 1; i < p->n_words; i++) {
		const char *w = p->words[i].exp;

		if (fixed) {
			/* KEY [VAR [HINTS...]] */
			if (!key)
				key = i;
			else if (!target)
				target = w;
		} else if (strcmp(w, "-u") == 0 || strcmp(w, "--fs-uuid") == 0) {
			by_uuid = 1;
		} else if (strcmp(w, "-s") == 0 || strcmp(w, "--set") == 0) {
			target = "root";
		} else if (strncmp(w, "--set=", 6) == 0) {
			target = w + 6;
		} else if (strcmp(w, "-h") == 0 || (strncmp(w, "--hint", 6) == 0 && !strchr(w, '='))) {
			i++;
		} else if (w[0] != '-' && !key) {
			key = i;
		}
	}
	if (fixed && key && !target)
		target = "root";
	if (!target || !*target || strlen(target) > MAX_NAME)
		return;
	if (by_uuid && key && !p->words[key].unknown && uuid_like(p->words[key].exp))
		var_set_device(p, target, p->words[key].exp);
	else
		var_set(p, target, UNKNOWN);
}

static int
same_file(const sbat_grub_file *a, const sbat_grub_file *b)
{
	return a->path && b->path && strcmp(a->device, b->device) == 0 && strcmp(a->path, b->path) == 0;
}

/*
 * What a kernel line inside an if comes to: GRUB runs one branch, so it
 * counts when every kernel line of the entry names the same file.
 */
static void
kernel_in_if(block *b, const sbat_grub_file *before, int had, sbat_grub_file *f)
{
	if (had && (b->kernel_in_if || f->path) && !same_file(before, f)) {
		f->path = NULL;
		f->why = "the branches of an if name different files";
	}
	b->kernel_in_if = 1;
}

/* linux, linuxefi, linux16 and chainloader: the file of the innermost menuentry. */
static void
kernel_command(parser *p, size_t k)
{
	block *b = current_entry(p);
	sbat_grub_entry *e = b ? &p->cfg->entries[b->entry] : NULL;
	const char *cmd = p->words[k].raw;
	sbat_grub_file before;
	size_t i = k + 1;
	int had = e && e->command;

	if (!e || e->is_submenu) {
		note(p, p->cmd_line, "a kernel line outside a menuentry: not followed");
		return;
	}
	while (strcmp(cmd, "chainloader") == 0 && i < p->n_words && p->words[i].raw[0] == '-')
		i++;
	before = e->kernel;
	memset(&e->kernel, 0, sizeof(e->kernel));
	e->command = strcmp(cmd, "linux") == 0    ? "linux" :
	             strcmp(cmd, "linuxefi") == 0 ? "linuxefi" :
	             strcmp(cmd, "linux16") == 0  ? "linux16" :
	                                            "chainloader";
	e->kernel.line = p->cmd_line;
	if (i >= p->n_words)
		e->kernel.why = "the command names no file";
	else
		resolve_file(p, &p->words[i], &e->kernel);
	if (strcmp(cmd, "linux16") == 0) {
		e->kernel.path = NULL;
		e->kernel.why = "linux16 exists in BIOS GRUB only";
	} else if (e->kernel.path && in_loop(p)) {
		e->kernel.path = NULL;
		e->kernel.why = "the line is inside a loop";
	} else if (conditional(p)) {
		kernel_in_if(b, &before, had, &e->kernel);
	} else {
		b->kernel_in_if = 0; /* runs after any if: its file is the one loaded */
	}
}

static void
initrd_command(parser *p, size_t k)
{
	block *b = current_entry(p);
	sbat_grub_entry *e = b ? &p->cfg->entries[b->entry] : NULL;
	sbat_grub_file *list;
	size_t i;

	if (!e || e->is_submenu)
		return;
	list = (sbat_grub_file *)e->initrds;
	for (i = k + 1; i < p->n_words; i++) {
		if (!list) {
			list = p_alloc(p, MAX_INITRDS * sizeof(*list));
			e->initrds = list;
			e->n_initrds = 0;
		}
		if (!list || e->n_initrds == MAX_INITRDS)
			return;
		resolve_file(p, &p->words[i], &list[e->n_initrds++]);
	}
}

/* configfile and source at the top: the file GRUB reads next. */
static void
next_config_command(parser *p, size_t k)
{
	sbat_grub_cfg *c = &p->cfg->pub;

	if (current_entry(p))
		return;
	if (k + 1 >= p->n_words) {
		note(p, p->cmd_line, "configfile or source without a file");
		return;
	}
	c->next_command = strcmp(p->words[k].raw, "source") == 0 ? "source" :
	                  strcmp(p->words[k].raw, "normal") == 0 ? "normal" :
	                                                           "configfile";
	resolve_file(p, &p->words[k + 1], &c->next_config);
	if (conditional(p)) {
		c->next_config.device = c->next_config.path = NULL;
		c->next_config.why = "it is inside an if or a loop that sbat-add cannot run";
	}
}

static void
simple_command(parser *p, size_t k)
{
	const char *cmd = p->words[k].raw;
	int top = current_entry(p) == NULL;
	size_t i;

	if (p->words[k].quoted || p->words[k].unknown)
		return;
	if (strcmp(cmd, "set") == 0) {
		for (i = k + 1; i < p->n_words; i++)
			assignment(p, &p->words[i], top);
	} else if (k + 1 == p->n_words && assignment(p, &p->words[k], top)) {
		/* NAME=VALUE on its own */
	} else if (strcmp(cmd, "unset") == 0) {
		for (i = k + 1; i < p->n_words; i++)
			var_unset(p, p->words[i].raw);
	} else if (strncmp(cmd, "search", 6) == 0 && (cmd[6] == '\0' || cmd[6] == '.')) {
		search_command(p, k);
	} else if (strcmp(cmd, "linux") == 0 || strcmp(cmd, "linuxefi") == 0 || strcmp(cmd, "linux16") == 0 ||
	           strcmp(cmd, "chainloader") == 0) {
		kernel_command(p, k);
	} else if (strcmp(cmd, "initrd") == 0 || strcmp(cmd, "initrdefi") == 0) {
		initrd_command(p, k);
	} else if (strcmp(cmd, "configfile") == 0 || strcmp(cmd, "source") == 0 ||
	           (strcmp(cmd, "normal") == 0 && k + 1 < p->n_words)) {
		next_config_command(p, k);
	} else if (strcmp(cmd, "blscfg") == 0) {
		note(p, p->cmd_line, "blscfg: the menu entries come from BLS files, which are not followed here");
	}
}

/* Keywords that open or close a block; 1 when words[k] was one and the command is done. */
/* Kleene's and and or over 1, 0 and -1 (not known). */
static int
and3(int a, int b)
{
	return a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
}

static int
or3(int a, int b)
{
	return a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
}

/* -e, -f, -d or -s (op) on the file word w names, as the caller's exists finds it; -1 when not known. */
static int
file_test(parser *p, const char *op, const word *w)
{
	sbat_grub_file f;
	enum grubcfg_kind k;

	memset(&f, 0, sizeof(f));
	resolve_exp(p, w->exp, w->unknown, &f);
	if (!f.path || !p->o->exists)
		return -1;
	k = p->o->exists(p->o->ctx, f.device, f.path);
	if (k == GRUBCFG_UNKNOWN)
		return -1;
	if (op[1] == 'e')
		return k != GRUBCFG_NOTHING;
	if (op[1] == 'f')
		return k == GRUBCFG_FILE;
	if (op[1] == 'd')
		return k == GRUBCFG_DIR;
	return k == GRUBCFG_NOTHING ? 0 : -1; /* -s: the size is not looked at */
}

/* One test of w[*i..n), ! before it: 1, 0, -1 when not known, -2 when it is not one sbat-add reads. */
static int
test_primary(parser *p, const word *w, size_t n, size_t *i)
{
	int neg = 0, r;

	while (*i < n && is_word(&w[*i], "!")) {
		neg ^= 1;
		(*i)++;
	}
	if (*i >= n)
		return -2;
	if (*i + 1 < n && (is_word(&w[*i + 1], "=") || is_word(&w[*i + 1], "==") || is_word(&w[*i + 1], "!="))) {
		if (*i + 2 >= n)
			return -2;
		r = w[*i].unknown || w[*i + 2].unknown ?
		        -1 :
		        (strcmp(w[*i].exp, w[*i + 2].exp) == 0) == !is_word(&w[*i + 1], "!=");
		*i += 3;
	} else if (*i + 1 < n &&
	           (is_word(&w[*i], "-e") || is_word(&w[*i], "-f") || is_word(&w[*i], "-d") || is_word(&w[*i], "-s"))) {
		r = file_test(p, w[*i].raw, &w[*i + 1]);
		*i += 2;
	} else if (*i + 1 < n && (is_word(&w[*i], "-z") || is_word(&w[*i], "-n"))) {
		r = w[*i + 1].unknown ? -1 : (w[*i + 1].exp[0] == '\0') == is_word(&w[*i], "-z");
		*i += 2;
	} else if (w[*i].raw[0] == '-' && !w[*i].quoted) {
		return -2;
	} else {
		r = w[*i].unknown ? -1 : w[*i].exp[0] != '\0'; /* a string alone: true when not empty */
		(*i)++;
	}
	return r < 0 ? r : r ^ neg;
}

/* A test's words w[0..n): its tests joined by -a and -o (-a binds closer), as GRUB's test command reads them. */
static int
test_expr(parser *p, const word *w, size_t n)
{
	int any = 0, all = 1, r;
	size_t i = 0;

	for (;;) {
		if ((r = test_primary(p, w, n, &i)) == -2)
			return -1;
		all = and3(all, r);
		if (i == n)
			return or3(any, all);
		if (is_word(&w[i], "-o")) {
			any = or3(any, all);
			all = 1;
		} else if (!is_word(&w[i], "-a")) {
			return -1;
		}
		i++;
	}
}

/*
 * The condition of an if or elif in words[k..]: 1 or 0 when it can be
 * known without running anything (true, false, or a [ ... ] or test of
 * words that are known and of files the caller can look at), -1 otherwise.
 */
static int
condition(parser *p, size_t k)
{
	const word *w = p->words + k;
	size_t n = p->n_words - k;

	if (n == 1 && (is_word(w, "true") || is_word(w, "false")))
		return is_word(w, "true");
	if (n >= 3 && is_word(&w[0], "[") && is_word(&w[n - 1], "]"))
		return test_expr(p, w + 1, n - 2);
	if (n >= 2 && is_word(&w[0], "test"))
		return test_expr(p, w + 1, n - 1);
	return -1;
}

/* elif at words[k], or else (k past the end): the branch that follows and whether it runs. */
static void
next_branch(parser *p, size_t k)
{
	block *b = p->depth ? &p->stack[p->depth - 1] : NULL;
	int outer_dead;

	if (!b || b->kind != B_IF)
		return;
	b->taken |= b->truth == 1;
	p->depth--; /* the if's own branch does not make its condition dead */
	outer_dead = dead(p);
	p->depth++;
	if (b->taken || outer_dead)
		b->truth = 0;
	else if (b->truth == 0)
		b->truth = k < p->n_words ? condition(p, k + 1) : 1;
	else
		b->truth = -1;
}

/* if at words[k]: its first branch runs when its condition is known true. */
static void
open_if(parser *p, size_t k)
{
	int was_dead = dead(p);
	block *b = push(p, B_IF);

	if (b)
		b->truth = was_dead ? 0 : condition(p, k + 1);
}

static int
block_keyword(parser *p, size_t k)
{
	const word *w = &p->words[k];

	if (is_word(w, "if")) {
		open_if(p, k);
	} else if (is_word(w, "elif")) {
		mid_block(p, B_IF, "elif without if");
		next_branch(p, k);
	} else if (is_word(w, "fi")) {
		end_block(p, B_IF, "fi without if");
	} else if (is_word(w, "for") || is_word(w, "while") || is_word(w, "until")) {
		push(p, B_LOOP);
	} else if (is_word(w, "done")) {
		end_block(p, B_LOOP, "done without a loop");
	} else if (is_word(w, "function")) {
		if (is_word(&p->words[p->n_words - 1], "{"))
			push(p, B_FUNC);
		else
			note(p, p->cmd_line, "a function without { at the end of its line: not followed");
	} else if ((is_word(w, "menuentry") || is_word(w, "submenu")) && dead(p)) {
		if (open_brace(p, k))
			push(p, B_GROUP); /* in a branch that does not run: GRUB never adds it */
	} else if (is_word(w, "menuentry") || is_word(w, "submenu")) {
		open_entry(p, k);
	} else if (is_word(w, "{")) {
		push(p, B_GROUP);
	} else if (is_word(w, "}")) {
		close_block(p);
	} else {
		return 0;
	}
	return 1;
}

static void
run_command(parser *p)
{
	size_t k = 0;

	if (p->overflow) {
		note(p, p->cmd_line, "a command longer than sbat-add reads: not followed");
		return;
	}
	if (in_function(p)) {
		skip_in_function(p);
		return;
	}
	/* then, else and do may start a command of their own: "then linux ..." */
	while (k < p->n_words) {
		const word *w = &p->words[k];

		if (is_word(w, "then")) {
			mid_block(p, B_IF, "then or else without if");
		} else if (is_word(w, "else")) {
			mid_block(p, B_IF, "then or else without if");
			next_branch(p, p->n_words);
		} else if (is_word(w, "do"))
			mid_block(p, B_LOOP, "do without a loop");
		else
			break;
		k++;
	}
	if (k < p->n_words && !block_keyword(p, k) && !dead(p))
		simple_command(p, k);
}

/* The end of the file: blocks left open; what the top holds. */
static void
finish(parser *p)
{
	sbat_grub_cfg *c = &p->cfg->pub;
	var *v;

	while (p->depth) {
		block *b = &p->stack[p->depth - 1];

		if (b->kind == B_ENTRY) {
			sbat_grub_entry *e = &p->cfg->entries[b->entry];

			note(p, b->line, "a menuentry that is never closed: GRUB does not add it");
			e->kernel.path = NULL;
			e->kernel.why = "its menuentry is never closed";
		} else if (!p->stopped) {
			note(p, b->line, "a block that is never closed");
		}
		pop(p);
	}
	v = var_find(p, "root", 4);
	c->root_device = v ? device_id(p, v->value, strlen(v->value)) : NULL;
	v = var_find(p, "prefix", 6);
	if (v) {
		c->prefix.word = p->prefix_raw;
		c->prefix.line = 0;
		resolve_exp(p, v->value, strcmp(v->value, UNKNOWN) == 0, &c->prefix);
	}
	c->notes = p->cfg->notes;
}

/* "(DEVICE)path" as a variable's value, with the device as a search leaves it. */
static void
var_set_path(parser *p, const char *name, const char *device, const char *path)
{
	char *v = p_alloc(p, strlen(device) + strlen(path) + 4);

	if (!v)
		return;
	v[0] = '(';
	v[1] = DEV_OPEN;
	strcpy(v + 2, device);
	strcat(v, "\002)");
	strcat(v, path);
	var_set(p, name, v);
}

static void
seed_variables(parser *p)
{
	const grubcfg_opts *o = p->o;

	if (o->root_device && *o->root_device)
		var_set_device(p, "root", o->root_device);
	if (o->root_device && *o->root_device && o->prefix_path)
		var_set_path(p, "prefix", o->root_device, o->prefix_path);
	if (o->cmd_device && *o->cmd_device && o->cmd_path)
		var_set_path(p, "cmdpath", o->cmd_device, o->cmd_path);
}

/* Run every command of the file, from the variables the caller gives. */
static void
read_all(parser *p, builder *b)
{
	seed_variables(p);
	while (!p->nomem && lex_command(p, b))
		run_command(p);
}

/*
 * Read the file once to learn the variables it leaves set, into
 * p->final_vars (copied to p's memory); 0 on success, -1 out of memory.
 */
static int
final_variables(parser *p, builder *b)
{
	parser *first = calloc(1, sizeof(*first));
	size_t i;
	int r = 0;

	if (!first || !(first->cfg = calloc(1, sizeof(cfg_impl)))) {
		free(first);
		p->nomem = 1;
		return -1;
	}
	first->buf = p->buf;
	first->len = p->len;
	first->o = p->o;
	read_all(first, b);
	for (i = 0; i < first->n_vars && !first->nomem; i++) {
		p->final_vars[i].name = p_strdup(p, first->vars[i].name);
		p->final_vars[i].value = p_strdup(p, first->vars[i].value);
		if (!p->final_vars[i].name || !p->final_vars[i].value)
			r = -1;
	}
	if (first->nomem)
		r = -1;
	p->n_final = i;
	p->has_final = 1;
	p->nomem |= r != 0;
	sbat_grub_cfg_free(&first->cfg->pub);
	free(first);
	return r;
}

void
sbat_grub_cfg_free(sbat_grub_cfg *cfg)
{
	cfg_impl *c = (cfg_impl *)cfg;
	blob *b;

	if (!c)
		return;
	for (b = c->blobs; b;) {
		blob *next = b->next;

		free(b);
		b = next;
	}
	free(c->entries);
	free(c);
}

sbat_err
grubcfg_parse(const uint8_t *buf, size_t len, const grubcfg_opts *o, sbat_grub_cfg **ret, sbat_diag *reterr)
{
	parser *p;
	builder *b;
	sbat_err err = SBAT_OK;

	*ret = NULL;
	if (len > SBAT_BOOTCFG_MAX_SIZE)
		return diag_fail(reterr, SBAT_E_TOO_BIG, "configuration file over 1 MiB");
	p = calloc(1, sizeof(*p));
	b = malloc(sizeof(*b));
	if (!p || !b || !(p->cfg = calloc(1, sizeof(cfg_impl)))) {
		free(p);
		free(b);
		return diag_fail(reterr, SBAT_E_NOMEM, "no memory for the configuration");
	}
	p->buf = buf;
	p->len = buf ? len : 0;
	p->o = o;
	if (final_variables(p, b) == 0) {
		read_all(p, b);
		finish(p);
	}
	if (p->nomem) {
		sbat_grub_cfg_free(&p->cfg->pub);
		err = diag_fail(reterr, SBAT_E_NOMEM, "no memory for the configuration");
	} else {
		*ret = &p->cfg->pub;
	}
	free(b);
	free(p);
	return err;
}

sbat_err
sbat_grub_cfg_parse(const uint8_t *buf, size_t len, const char *root_device, const char *prefix_path,
                    sbat_grub_cfg **ret, sbat_diag *reterr)
{
	grubcfg_opts o;

	memset(&o, 0, sizeof(o));
	o.root_device = root_device;
	o.prefix_path = prefix_path;
	return grubcfg_parse(buf, len, &o, ret, reterr);
}

/* ------------------------------------------------ the default entry */

/* GRUB's menuentry_eq: the name against the spec up to its first single '>' (">>" is a '>'). */
static int
name_matches(const char *name, const char *spec)
{
	for (;;) {
		if (*spec == '>' && spec[1] != '>')
			return *name == '\0';
		if (*spec == '>')
			spec++;
		if (*name != *spec)
			return 0;
		if (*name == '\0')
			return 1;
		name++;
		spec++;
	}
}

/* What follows the first single '>' of spec; NULL when nothing does. */
static const char *
spec_rest(const char *spec)
{
	for (; *spec; spec++) {
		if (spec[0] == '>' && spec[1] == '>') {
			spec++;
			continue;
		}
		if (spec[0] == '>')
			return spec[1] ? spec + 1 : NULL;
	}
	return NULL;
}

/* The entry of menu `parent` that spec chooses; -1 when none does. */
static long
choose_in_menu(const sbat_grub_cfg *cfg, int parent, const char *spec)
{
	size_t i;
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(spec, &end, 0);
	if (end != spec) {
		if (errno)
			return -1;
		for (i = 0; i < cfg->n_entries; i++)
			if (cfg->entries[i].parent == parent && cfg->entries[i].position == n)
				return (long)i;
		return -1;
	}
	for (i = 0; i < cfg->n_entries; i++) {
		const sbat_grub_entry *e = &cfg->entries[i];

		if (e->parent == parent && (name_matches(e->title, spec) || (e->id && name_matches(e->id, spec))))
			return (long)i;
	}
	return -1;
}

sbat_err
sbat_grub_cfg_default_entry(const sbat_grub_cfg *cfg, const char *value, size_t *ret_index, int *ret_fallback,
                            sbat_diag *reterr)
{
	int parent = -1;
	const char *spec = value;
	unsigned hops;

	*ret_fallback = 0;
	for (hops = 0; hops <= MAX_DEPTH; hops++) {
		long chosen = spec && *spec ? choose_in_menu(cfg, parent, spec) : -1;
		size_t i;

		if (chosen < 0) {
			*ret_fallback |= spec && *spec;
			for (i = 0; i < cfg->n_entries && !(cfg->entries[i].parent == parent); i++)
				;
			if (i == cfg->n_entries)
				return diag_fail(reterr, SBAT_E_BOOTCFG, "the menu has no entries");
			chosen = (long)i;
			spec = NULL;
		} else {
			spec = spec_rest(spec);
		}
		if (!cfg->entries[chosen].is_submenu) {
			*ret_index = (size_t)chosen;
			return SBAT_OK;
		}
		parent = (int)chosen;
	}
	return diag_fail(reterr, SBAT_E_BOOTCFG, "submenus nested too deep");
}
