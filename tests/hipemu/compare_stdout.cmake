# cmake -DPROGRAM=<exe> -DEXPECTED=<file> -P compare_stdout.cmake
# Runs the program and fails unless it exits 0 and its standard output is the
# file's contents byte for byte (standard error is shown, not compared).
execute_process(COMMAND ${PROGRAM} OUTPUT_VARIABLE actual ERROR_VARIABLE errors RESULT_VARIABLE status)
file(READ ${EXPECTED} expected)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}\nstderr:\n${errors}\nstdout:\n${actual}")
endif()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "stdout differs from ${EXPECTED}\n--- expected\n${expected}--- actual\n${actual}--- stderr\n${errors}")
endif()
