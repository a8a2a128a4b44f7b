/* strategy.c: the table of strategies: what each can do, its accessors, and lookup by name at run time */
#include <string.h>

#include "iomap/strategy.h"
#include "iomap/target.h"
#include "arch.h"

/*
 * The function pointers of a row, from the strategy's id: its single
 * accesses at every width and its _rep loops, which the architecture's row
 * names (a split spells out its one width), and its copies in the
 * directions its forms have (iomap/strategies.h).
 */
#define IOMAP_SINGLES(id)							\
	.read8 = iomap_read8_##id, .read16 = iomap_read16_##id,		\
	.read32 = iomap_read32_##id, .read64 = iomap_read64_##id,		\
	.write8 = iomap_write8_##id, .write16 = iomap_write16_##id,		\
	.write32 = iomap_write32_##id, .write64 = iomap_write64_##id
#define IOMAP_REPS(id)								\
	.read_rep = { iomap_read8_rep_##id, iomap_read16_rep_##id,		\
		      iomap_read32_rep_##id, iomap_read64_rep_##id },		\
	.write_rep = { iomap_write8_rep_##id, iomap_write16_rep_##id,		\
		       iomap_write32_rep_##id, iomap_write64_rep_##id }
#define IOMAP_COPY_FIELD(dir, id) , .dir = iomap_##dir##_##id
#define IOMAP_COPIES(id, dirs) , .copy = true IOMAP_COPY_DIRS_##dirs(IOMAP_COPY_FIELD, id)

/*
 * Every strategy of the list, in its order: the architecture's row where
 * it has one, else absent, with the architectures that have it as the
 * reason.
 */
#define IOMAP_TABLE_ROW(id_, name_, forms, where)				\
	IOMAP_IF_PRESENT(id_,							\
		({ .name = name_, .id = #id_, IOMAP_ROW_FIELDS(id_)		\
		   IOMAP_FORMS_##forms(IOMAP_NO_FORM, IOMAP_COPIES, id_) },),	\
		({ .name = name_, .id = #id_, .help = IOMAP_ABSENT_WHY(where),	\
		   .lacks = IOMAP_ABSENT_WHY(where), .absent = IOMAP_ABSENT_WHY(where) },))

const struct iomap_strategy iomap_strategies[] = { IOMAP_STRATEGY_LIST(IOMAP_TABLE_ROW) };

const size_t iomap_nr_strategies = sizeof(iomap_strategies) / sizeof(iomap_strategies[0]);

const struct iomap_strategy *iomap_strategy_find(const char *name)
{
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		if (!strcmp(iomap_strategies[i].name, name))
			return &iomap_strategies[i];
	return NULL;
}

const struct iomap_strategy *iomap_strategy_find_id(const char *id)
{
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		if (!strcmp(iomap_strategies[i].id, id))
			return &iomap_strategies[i];
	return NULL;
}

const struct iomap_strategy *iomap_strategy_kernel_single(void)
{
	return iomap_strategy_find_id("ordered");
}

const struct iomap_strategy *iomap_strategy_kernel_relaxed(void)
{
	return iomap_strategy_find_id("relaxed");
}

const struct iomap_strategy *iomap_strategy_kernel_copy(void)
{
	return iomap_strategy_find_id("kernel");
}

const char *iomap_strategy_cpu_missing(const struct iomap_strategy *s)
{
	if (s->absent)
		return s->absent;
	if (s->feature == IOMAP_FEATURE_none)
		return NULL;
	return iomap_arch_feature_missing(s->feature);
}
