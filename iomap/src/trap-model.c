/* trap-model.c: the trap device's layouts, register models and access log, below the target (target-trap.c) */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "trap-dev.h"

/* One register of a layout; port windows take the registers that fit them. */
struct trap_reg_init {
	size_t off, len;
	enum iomap_trap_model model;
	uint64_t value;
};

static const struct trap_reg_init default_regs[] = {
	{ IOMAP_TRAP_OFF_ID, 8, IOMAP_TRAP_MODEL_ID, IOMAP_TRAP_ID_VALUE },
	{ IOMAP_TRAP_OFF_SCRATCH, IOMAP_TRAP_SCRATCH_LEN, IOMAP_TRAP_MODEL_SCRATCH, 0 },
	{ IOMAP_TRAP_OFF_FIFO, 8, IOMAP_TRAP_MODEL_FIFO, 0 },
	{ IOMAP_TRAP_OFF_COUNTER, 8, IOMAP_TRAP_MODEL_COUNTER, 0 },
	{ IOMAP_TRAP_OFF_STATUS_RC, 8, IOMAP_TRAP_MODEL_RC, 0 },
	{ IOMAP_TRAP_OFF_STATUS_W1C, 8, IOMAP_TRAP_MODEL_W1C, 0 },
	{ IOMAP_TRAP_OFF_COPY, IOMAP_TRAP_COPY_LEN, IOMAP_TRAP_MODEL_SCRATCH, 0 },
};

/* Plain memory behind the fault: the same windows, every byte scratch. */
static const struct trap_reg_init scratch_regs[] = {
	{ 0, IOMAP_TRAP_MMIO_LEN, IOMAP_TRAP_MODEL_SCRATCH, 0 },
};

static const struct {
	const char *name;
	const struct trap_reg_init *regs;
	size_t nregs;
} layouts[] = {
	{ "default", default_regs, sizeof(default_regs) / sizeof(default_regs[0]) },
	{ "scratch", scratch_regs, sizeof(scratch_regs) / sizeof(scratch_regs[0]) },
};

/* Storage registers start as `value`'s little-endian bytes, repeated. */
static void reg_reset(struct trap_window *w, struct trap_reg *r)
{
	r->value = r->init;
	r->head = r->level = 0;
	for (size_t i = 0; i < r->len; i++)
		w->store[r->off + i] = (unsigned char)(r->init >> (8 * (i % 8)));
}

int trap_reg_add(struct trap_window *w, size_t off, size_t len, enum iomap_trap_model model, uint64_t value)
{
	struct trap_reg *r;

	if (!len || off > w->len || len > w->len - off || model > IOMAP_TRAP_MODEL_W1C) {
		errno = EINVAL;
		return -1;
	}
	if (w->nregs == TRAP_MAX_REGS) {
		errno = ENOSPC;
		return -1;
	}
	r = &w->regs[w->nregs++];
	r->off = off;
	r->len = len;
	r->model = model;
	r->init = value;
	reg_reset(w, r);
	return 0;
}

int trap_layout_apply(struct trap_dev *d, const char *name, char *why, size_t whylen)
{
	size_t nlayouts = sizeof(layouts) / sizeof(layouts[0]), i, n;

	for (i = 0; i < nlayouts && strcmp(layouts[i].name, name); i++)
		;
	if (i == nlayouts) {
		n = (size_t)snprintf(why, whylen, "unknown model '%s' (the models:", name);
		for (i = 0; i < nlayouts && n < whylen; i++)
			n += (size_t)snprintf(why + n, whylen - n, "%s %s", i ? "," : "", layouts[i].name);
		if (n < whylen)
			snprintf(why + n, whylen - n, ")");
		errno = EINVAL;
		return -1;
	}
	d->layout = layouts[i].name;
	for (int s = 0; s < 2; s++) {
		struct trap_window *w = &d->win[s];

		w->nregs = 0;
		memset(w->store, 0xff, w->len);
		for (size_t j = 0; j < layouts[i].nregs; j++) {
			const struct trap_reg_init *r = &layouts[i].regs[j];

			/* a register that starts inside a window is cut to fit it */
			if (r->off < w->len)
				trap_reg_add(w, r->off, r->len < w->len - r->off ? r->len : w->len - r->off,
					r->model, r->value);
		}
	}
	return 0;
}

/* The register covering off (the latest added wins), or NULL; *end: where its say over off stops. */
static struct trap_reg *reg_at(struct trap_window *w, size_t off, size_t *end)
{
	struct trap_reg *r = NULL;
	size_t i = w->nregs, first_later;

	while (i-- > 0)
		if (off >= w->regs[i].off && off - w->regs[i].off < w->regs[i].len) {
			r = &w->regs[i];
			break;
		}
	*end = r ? r->off + r->len : w->len;
	first_later = r ? (size_t)(r - w->regs) + 1 : 0;
	for (i = first_later; i < w->nregs; i++)
		if (w->regs[i].off > off && w->regs[i].off < *end)
			*end = w->regs[i].off;
	return r;
}

/* The bytes [at, at+n) of a value model's 64-bit value, as the access sees them. */
static void value_bytes(uint64_t v, size_t at, size_t n, unsigned char *p)
{
	for (size_t i = 0; i < n; i++)
		p[i] = at + i < 8 ? (unsigned char)(v >> (8 * (at + i))) : 0;
}

static uint64_t with_bytes(uint64_t v, size_t at, size_t n, const unsigned char *p)
{
	for (size_t i = 0; i < n && at + i < 8; i++) {
		v &= ~(0xffull << (8 * (at + i)));
		v |= (uint64_t)p[i] << (8 * (at + i));
	}
	return v;
}

/* One register's share of an access: n bytes at off, data at p. */
static void model_access(struct trap_window *w, struct trap_reg *r, size_t off, size_t n,
			 enum iomap_trap_dir dir, unsigned char *p)
{
	unsigned char *s = w->store + off;
	size_t at = r ? off - r->off : 0;
	int rd = dir == IOMAP_TRAP_READ;

	switch (r ? r->model : IOMAP_TRAP_MODEL_RESERVED) {
	case IOMAP_TRAP_MODEL_RESERVED:
		if (rd)
			memset(p, 0xff, n);
		break;
	case IOMAP_TRAP_MODEL_SCRATCH:
		if (rd)
			memcpy(p, s, n);
		else
			memcpy(s, p, n);
		break;
	case IOMAP_TRAP_MODEL_ID:
		if (rd)
			memcpy(p, s, n);
		break;
	case IOMAP_TRAP_MODEL_RC:
		if (rd) {
			memcpy(p, s, n);
			memset(s, 0, n);
		}
		break;
	case IOMAP_TRAP_MODEL_W1C:
		for (size_t i = 0; i < n; i++)
			if (rd)
				p[i] = s[i];
			else
				s[i] &= (unsigned char)~p[i];
		break;
	case IOMAP_TRAP_MODEL_FIFO:
		if (rd) {
			uint64_t v = IOMAP_TRAP_FIFO_EMPTY;

			if (r->level) {
				v = r->fifo[r->head];
				r->head = (r->head + 1) % IOMAP_TRAP_FIFO_DEPTH;
				r->level--;
			}
			value_bytes(v, at, n, p);
		} else if (r->level < IOMAP_TRAP_FIFO_DEPTH) {
			r->fifo[(r->head + r->level++) % IOMAP_TRAP_FIFO_DEPTH] = with_bytes(0, at, n, p);
		}
		break;
	case IOMAP_TRAP_MODEL_COUNTER:
		if (rd)
			value_bytes(r->value++, at, n, p);
		else
			r->value = with_bytes(r->value, at, n, p);
		break;
	}
}

void trap_access(struct trap_dev *d, enum iomap_space space, size_t off, unsigned int width,
		 enum iomap_trap_dir dir, void *data)
{
	struct trap_window *w = &d->win[space];
	unsigned char *p = data;
	uint64_t v = 0;

	for (size_t done = 0, end, n; done < width; done += n) {
		struct trap_reg *r = reg_at(w, off + done, &end);

		n = end - (off + done) < width - done ? end - (off + done) : width - done;
		model_access(w, r, off + done, n, dir, p + done);
	}
	if (d->log_count == IOMAP_TRAP_LOG_CAPACITY) {
		d->log_dropped++;
		return;
	}
	memcpy(&v, p, width < 8 ? width : 8);
	d->log[d->log_count++] = (struct iomap_trap_access){
		.value = v, .offset = (uint32_t)off, .width = (uint8_t)width,
		.dir = (uint8_t)dir, .space = (uint8_t)space,
	};
}
