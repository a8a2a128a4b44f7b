// context-schema.cc: prints the schema's context part as bench/context-keys.cc's table makes it, for the test that holds the schema to it
#include <cstdio>

#include <nlohmann/json.hpp>

#include "context.h"

int main()
{
	printf("%s\n", rb_context_schema().dump(2).c_str());
	return 0;
}
