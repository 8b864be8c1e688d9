# The test toolchain: every tool a test runs at test time (to build code
# objects, or as the oracle it compares with) is found here, once, and reaches
# the tests' C++ through one library, dppgemm_test_support (tests/support/).
#
# dppgemm_test_toolchain(<target>)
#   Gives test executable <target> its toolchain: links dppgemm_test_support
#   (tests/support/test_toolchain.hpp: the tools' paths, running a command, this
#   process's work directory, assembling, linking and hipcc; kernel_builder.hpp:
#   small kernels assembled and run on the emulator) and makes it wait for the
#   project's code objects when they are built.
#
# CMake-side users (add_test commands running scripts) read the variables:
#   DPPGEMM_TEST_CLANG15/19, DPPGEMM_TEST_LLD15, DPPGEMM_TEST_LLVM_MC15/19,
#   DPPGEMM_TEST_OBJDUMP15/19, DPPGEMM_TEST_READELF15/19,
#   DPPGEMM_TEST_OBJCOPY15, DPPGEMM_TEST_OFFLOAD_BUNDLER, DPPGEMM_HIPCC.
# LLVM 15 assembles and disassembles gfx900..gfx940 and is the disassembly
# oracle; LLVM 19 does gfx942, which LLVM 15 does not know.
include_guard(GLOBAL)
include(DppgemmHipcc)  # DPPGEMM_HIPCC

find_program(DPPGEMM_TEST_CLANG15 NAMES clang-15 REQUIRED)
find_program(DPPGEMM_TEST_CLANG19 NAMES clang-19 REQUIRED)
find_program(DPPGEMM_TEST_LLD15 NAMES ld.lld-15 REQUIRED)
find_program(DPPGEMM_TEST_OBJDUMP15 NAMES llvm-objdump-15 REQUIRED)
find_program(DPPGEMM_TEST_OBJDUMP19 NAMES llvm-objdump-19 REQUIRED)
find_program(DPPGEMM_TEST_READELF15 NAMES llvm-readelf-15 REQUIRED)
find_program(DPPGEMM_TEST_READELF19 NAMES llvm-readelf-19 REQUIRED)
find_program(DPPGEMM_TEST_OBJCOPY15 NAMES llvm-objcopy-15 REQUIRED)
find_program(DPPGEMM_TEST_OFFLOAD_BUNDLER NAMES clang-offload-bundler PATHS /usr/lib/llvm-15/bin REQUIRED)
# llvm-mc is the decoder corpus test's assembler only: a missing one fails
# that test (its path is then empty), it does not stop the build.
find_program(DPPGEMM_TEST_LLVM_MC15 NAMES llvm-mc-15)
find_program(DPPGEMM_TEST_LLVM_MC19 NAMES llvm-mc-19)
foreach(tool DPPGEMM_TEST_LLVM_MC15 DPPGEMM_TEST_LLVM_MC19)
  if(NOT ${tool})
    message(WARNING "${tool} not found: the decoder corpus test will fail")
    set(${tool} "")
  endif()
endforeach()

function(dppgemm_test_toolchain target)
  target_link_libraries(${target} PRIVATE dppgemm_test_support)
  if(TARGET dppgemm_code_object_files)
    add_dependencies(${target} dppgemm_code_object_files)
  endif()
endfunction()

# dppgemm_discover_tests(<exe> [catch_discover_tests options...])
#   Registers the Catch2 cases of <exe> as ctests named "<area>: <case>",
#   <area> being the tests/ folder the call is in. Each case runs with
#   `-w NoAssertions` (a case that checks nothing fails), and one that ends
#   with dppgemm_test_skip_code (test_toolchain.hpp: skip_test) is reported
#   skipped, never passed.
set(dppgemm_test_skip_code 77)
# Catch's discovery script gets its arguments as `cmake -D`, which drops a
# value's trailing blank: a wrapper around it adds the space of "<area>: ".
set(dppgemm_catch_add_tests ${_CATCH_DISCOVER_TESTS_SCRIPT})
set(dppgemm_catch_add_tests_wrapper ${PROJECT_BINARY_DIR}/DppgemmCatchAddTests.cmake)
configure_file(${CMAKE_CURRENT_LIST_DIR}/DppgemmCatchAddTests.cmake.in ${dppgemm_catch_add_tests_wrapper} @ONLY)
function(dppgemm_discover_tests exe)
  cmake_parse_arguments(arg "" "" "PROPERTIES" ${ARGN})
  get_filename_component(area ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(_CATCH_DISCOVER_TESTS_SCRIPT ${dppgemm_catch_add_tests_wrapper})
  catch_discover_tests(${exe} TEST_PREFIX "${area}:" EXTRA_ARGS -w NoAssertions ${arg_UNPARSED_ARGUMENTS}
    PROPERTIES SKIP_RETURN_CODE ${dppgemm_test_skip_code} ${arg_PROPERTIES})
endfunction()
