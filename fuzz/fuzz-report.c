/* fuzz-report.c: fuzz target for the report (loader, summary, renderer, comparison): CPython embedded, Python's own line and opcode coverage fed to libFuzzer */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/*
 * libFuzzer cannot instrument Python, so the Python code under test reports
 * its own coverage: a C trace function sees every line and opcode that runs
 * in the report's packages and marks each transition (from one instruction
 * to the next, within a code object) in libFuzzer's extra counters, which
 * libFuzzer reads as it reads the counters of compiled code.  Marks, not
 * counts: how often a loop over the file's benchmarks ran says nothing new
 * about the loader, and counts made every longer file a new input.  Code outside
 * the packages (the standard library, this harness's Python side) is not
 * traced: new paths there are not what the fuzzer should chase.
 */
#define COUNTERS (1u << 16)
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t counters[COUNTERS];

static PyObject *one_input, *mutate;
static uintptr_t previous;

static int traced(PyCodeObject *code)
{
	const char *file = PyUnicode_AsUTF8(code->co_filename);

	return file && (strstr(file, "/regbench_report/") || strstr(file, "/regbench_base/"));
}

static int trace(PyObject *self, PyFrameObject *frame, int what, PyObject *arg)
{
	PyCodeObject *code = PyFrame_GetCode(frame);
	uintptr_t here;

	(void)self;
	(void)arg;
	if (what == PyTrace_CALL) {
		int ours = traced(code);

		/* per frame: lines and opcodes only where the package runs */
		PyObject_SetAttrString((PyObject *)frame, "f_trace_lines", ours ? Py_True : Py_False);
		PyObject_SetAttrString((PyObject *)frame, "f_trace_opcodes", ours ? Py_True : Py_False);
		previous = (uintptr_t)code;
	} else if (what == PyTrace_LINE || what == PyTrace_OPCODE) {
		here = ((uintptr_t)code >> 4) * 0x9e3779b1u ^ (uintptr_t)PyFrame_GetLasti(frame) * 0x85ebca6bu;
		counters[(here ^ previous) % COUNTERS] = 1;
		previous = here >> 1;
	}
	Py_DECREF(code);
	return 0;
}

static void __attribute__((noreturn)) python_failed(const char *what)
{
	fprintf(stderr, "fuzz-report: %s\n", what);
	if (PyErr_Occurred())
		PyErr_Print();
	abort();
}

/*
 * Debian's CPython, isolated from the environment (no PYTHONPATH, no user
 * site: the pyenv python3 on PATH must not leak in), and the harness's
 * Python side from this source tree.
 */
/*
 * The module's temporary folder, removed when libFuzzer ends the run: it
 * exits without finalizing CPython, so Python's own atexit never runs.
 */
static PyObject *cleanup;

static void remove_folder(void)
{
	Py_XDECREF(PyObject_CallNoArgs(cleanup));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	PyConfig config;
	PyObject *module;
	PyStatus status;

	(void)argc;
	(void)argv;
	PyConfig_InitIsolatedConfig(&config);
	status = Py_InitializeFromConfig(&config);
	PyConfig_Clear(&config);
	if (PyStatus_Exception(status))
		python_failed("cannot start CPython");
	if (PyRun_SimpleString("import sys; sys.path.insert(0, '" FUZZ_SOURCE_DIR "')"))
		python_failed("cannot set the module path");
	module = PyImport_ImportModule("report_target");
	if (!module)
		python_failed("cannot import report_target from " FUZZ_SOURCE_DIR);
	one_input = PyObject_GetAttrString(module, "one_input");
	mutate = PyObject_GetAttrString(module, "mutate");
	cleanup = PyObject_GetAttrString(module, "cleanup");
	if (!one_input || !mutate || !cleanup)
		python_failed("report_target lacks one_input, mutate or cleanup");
	atexit(remove_folder);
	Py_DECREF(module);
	PyEval_SetTrace(trace, NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	PyObject *bytes = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)size), *r;

	if (!bytes)
		python_failed("out of memory");
	r = PyObject_CallOneArg(one_input, bytes);
	Py_DECREF(bytes);
	if (!r)
		python_failed("the report raised something other than ReportError:");
	Py_DECREF(r);
	return 0;
}

/* Half the mutations change the document's structure (report_target.mutate), half its bytes. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	PyObject *r;
	char *bytes;
	Py_ssize_t n;

	if (seed % 2)
		return LLVMFuzzerMutate(data, size, max_size);
	r = PyObject_CallFunction(mutate, "y#nI", (const char *)data, (Py_ssize_t)size, (Py_ssize_t)max_size, seed);
	if (!r)
		python_failed("report_target.mutate failed:");
	if (r == Py_None || PyBytes_AsStringAndSize(r, &bytes, &n) || (size_t)n > max_size) {
		PyErr_Clear();
		Py_DECREF(r);
		return LLVMFuzzerMutate(data, size, max_size);
	}
	memcpy(data, bytes, (size_t)n);
	Py_DECREF(r);
	return (size_t)n;
}
