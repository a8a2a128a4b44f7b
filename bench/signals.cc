// signals.cc: the only state a signal handler touches: which signal asked to stop, and the temporary file to remove
#include <signal.h>
#include <unistd.h>

#include "signals.h"

namespace {

// A handler can reach nothing but these: they stay file-scope globals.
volatile sig_atomic_t g_signal = 0;
char g_tmp[rb_temporary_size];

void on_signal(int sig)
{
	if (g_signal) {
		// asked twice: stop now, leaving nothing half-written behind
		if (g_tmp[0])
			unlink(g_tmp);
		signal(sig, SIG_DFL);
		raise(sig);
	}
	g_signal = sig;
}

}  // namespace

void rb_catch_signals()
{
	struct sigaction sa = {};

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, nullptr);
	sigaction(SIGTERM, &sa, nullptr);
}

int rb_interrupted()
{
	return g_signal;
}

char *rb_temporary()
{
	return g_tmp;
}
