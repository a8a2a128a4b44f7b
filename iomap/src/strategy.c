/* strategy.c: the table of strategies: what each can do, its accessors, and lookup by name at run time */
#include <string.h>

#include "iomap/strategy.h"
#include "iomap/target.h"
#include "arch.h"

/*
 * Every strategy of the list, in its order: where this architecture has it,
 * its row and the forms its line gives; else absent, with the architectures
 * that have it as the reason (IOMAP_TABLE_ROW, iomap/strategies.h).
 */
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
