# commit.cmake: writes OUT, a header naming the source tree's commit (git describe --always --dirty), at every
# build, rewriting it only when the commit changed; "unknown" when SOURCE is not the top of a git checkout
# (a release tarball, or a copy inside someone else's repository).
set(commit unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE top_status ERROR_QUIET)
  if(top_status EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE}" source)
  endif()
  if(top_status EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE} describe --always --dirty
                    OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0 AND described MATCHES "^[A-Za-z0-9._+-]+$")
      set(commit ${described})
    endif()
  endif()
endif()
file(CONFIGURE OUTPUT ${OUT} CONTENT "#define REGBENCH_COMMIT \"${commit}\"\n")
