# The build's reading of include/dppgemm/variants.def: rows with a new template,
# several defines and a target feature are understood; malformed rows, unknown
# features and duplicate names stop the configuration with a message naming them.
cmake_minimum_required(VERSION 3.20)

function(read_table text out_var result_var)
  set(file ${WORK_DIR}/table.def)
  file(WRITE ${file} "/* comment lines are ignored */\n${text}")
  execute_process(COMMAND ${CMAKE_COMMAND} -DDPPGEMM_CMAKE_DIR=${DPPGEMM_CMAKE_DIR} -DTABLE=${file}
                          -P ${CMAKE_CURRENT_LIST_DIR}/read_table.cmake
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE result)
  set(${out_var} "${out}${err}" PARENT_SCOPE)
  set(${result_var} ${result} PARENT_SCOPE)
endfunction()

function(expect text expected_result expected_output)
  read_table("${text}" output result)
  string(REGEX REPLACE "[ \n]+" " " flat "${output}")
  if(NOT result EQUAL expected_result)
    message(FATAL_ERROR "table:\n${text}\nexit ${result}, expected ${expected_result}:\n${output}")
  endif()
  string(FIND "${flat}" "${expected_output}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "table:\n${text}\noutput lacks '${expected_output}':\n${flat}")
  endif()
endfunction()

file(MAKE_DIRECTORY ${WORK_DIR})
set(good [[DPPGEMM_VARIANT(dpp0, "sgemm.s", "DPP=0", "", 128, 8, 8192, 0, "no sharing")
DPPGEMM_VARIANT(bcast, "sgemm.s", "DPP=4 PAD=8", "row_newbcast", 128, 8, 4352, 0, "row_newbcast, one B read per row")
DPPGEMM_VARIANT(packed, "packed.s", "TILE=16", "packed_fp32", 64, 4, 8192, -1024, "v_pk_fma_f32")
DPPGEMM_VARIANT(plain, "sgemm.s", "", "", 32, 2, 4096, 0, "no defines or features after rows with them")
]])
expect("${good}" 0 "dpp0|sgemm.s|DPP=0;MACRO_TILE=128;MICRO_TILE=8||128|8|8192|0|no sharing")
expect("${good}" 0 "bcast|sgemm.s|DPP=4;PAD=8;MACRO_TILE=128;MICRO_TILE=8|row_newbcast|128|8|4352|0|row_newbcast, one B read per row")
expect("${good}" 0 "packed|packed.s|TILE=16;MACRO_TILE=64;MICRO_TILE=4|packed_fp32|64|4|8192|-1024|v_pk_fma_f32")
expect("${good}" 0 "plain|sgemm.s|MACRO_TILE=32;MICRO_TILE=2||32|2|4096|0|no defines or features after rows with them")
expect("${good}" 0 "bcast not on gfx906: row_newbcast")
expect("${good}" 0 "packed not on gfx908: packed_fp32")
read_table("${good}" output result)
if(output MATCHES "not on gfx90a|not on gfx942|dpp0 not on")
  message(FATAL_ERROR "a target with the features was refused:\n${output}")
endif()

expect([[DPPGEMM_VARIANT(bad, "sgemm.s", "DPP", "", 128, 8, 1, 0, "x")]] 1 "variant 'bad': template parameter 'DPP' is not NAME=VALUE")
expect([[DPPGEMM_VARIANT(x, "sgemm.s", "", "row_newbcat", 128, 8, 1, 0, "x")]] 1 "variant 'x' needs feature 'row_newbcat'")
expect([[DPPGEMM_VARIANT(x, sgemm.s, "", "", 128, 8, 1, 0, "x")]] 1 "malformed variant row")
expect([[DPPGEMM_VARIANT(x, "sgemm.s", "", "", 1, 0, "x")]] 1 "malformed variant row")
expect([[DPPGEMM_VARIANT(x, "sgemm.s", "MACRO_TILE=64", "", 64, 4, 1, 0, "x")]] 1 "variant 'x': 'MACRO_TILE=64' belongs in the row's macro_tile / micro_tile column")
expect([[DPPGEMM_VARIANT(x, "sgemm.s", "", "", 128, 8, 1, 0, "x")
DPPGEMM_VARIANT(x, "sgemm.s", "", "", 128, 8, 1, 0, "y")]] 1 "variant 'x' is declared twice")
expect([[DPPGEMM_VARIANT(best, "sgemm.s", "", "", 128, 8, 1, 0, "x")]] 1 "variant 'best' is declared twice or uses a reserved name")
expect("/* none */" 1 "no DPPGEMM_VARIANT rows")
# The project's own table reads cleanly.
execute_process(COMMAND ${CMAKE_COMMAND} -DDPPGEMM_CMAKE_DIR=${DPPGEMM_CMAKE_DIR} -DTABLE=${PROJECT_TABLE}
                        -P ${CMAKE_CURRENT_LIST_DIR}/read_table.cmake RESULT_VARIABLE result ERROR_VARIABLE out)
if(NOT result EQUAL 0 OR NOT out MATCHES "dpp1\\|sgemm.s\\|B_QUAD_SHARED=1")
  message(FATAL_ERROR "include/dppgemm/variants.def:\n${out}")
endif()
