// signals.cc: the only state a signal handler touches: which signal asked to stop, and the temporary file to remove
#include <signal.h>
#include <unistd.h>

#include "signals.h"

namespace {

/*
 * The signals that would end a run: asked is true for those a person or a
 * program sends on purpose (SIGUSR1, SIGUSR2 and SIGALRM mean nothing else to
 * regbench, and would end it with nothing kept), where a second one means
 * "now"; SIGPIPE comes again with every write to the closed pipe, SIGXCPU
 * every second past the soft limit, so neither ever counts as asked twice.
 * SIGQUIT keeps its core dump: it is how a hung run is examined.
 */
struct Stop {
	int sig;
	const char *name;
	bool asked;
};
const Stop kStops[] = {
	{SIGINT, "SIGINT", true}, {SIGTERM, "SIGTERM", true}, {SIGHUP, "SIGHUP", true}, {SIGUSR1, "SIGUSR1", true},
	{SIGUSR2, "SIGUSR2", true}, {SIGALRM, "SIGALRM", true}, {SIGPIPE, "SIGPIPE", false}, {SIGXCPU, "SIGXCPU", false},
};

// A handler can reach nothing but these: they stay file-scope globals.
volatile sig_atomic_t g_signal = 0, g_asked = 0;
char g_tmp[rb_temporary_size];

void on_signal(int sig)
{
	bool asked = false;

	for (const Stop &s : kStops)
		asked |= s.sig == sig && s.asked;
	if (asked && g_asked) {
		// asked twice: stop now, leaving nothing half-written behind
		if (g_tmp[0])
			unlink(g_tmp);
		signal(sig, SIG_DFL);
		raise(sig);
	}
	g_asked |= asked;
	if (!g_signal)
		g_signal = sig;
}

}  // namespace

void rb_catch_signals()
{
	struct sigaction sa = {};

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (const Stop &s : kStops)
		sigaction(s.sig, &sa, nullptr);
	signal(SIGXFSZ, SIG_IGN);
}

int rb_interrupted()
{
	return g_signal;
}

const char *rb_signal_name(int sig)
{
	for (const Stop &s : kStops)
		if (s.sig == sig)
			return s.name;
	return "a signal";
}

char *rb_temporary()
{
	return g_tmp;
}
