# Writes the current git commit into a header at build time (not configure
# time), so a replay command never names a commit older than the binary.
# Rewrites the file only when the commit changes, to avoid needless rebuilds.
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE commit
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit unknown)
endif()
execute_process(COMMAND git status --porcelain --untracked-files=no
  WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE dirty ERROR_QUIET)
if(dirty)
  set(commit "${commit}-dirty")
endif()
set(text "#define MPSIM_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
