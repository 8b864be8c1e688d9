# The template refuses parameter combinations that cannot work, each with an
# error naming the parameters, and assembles the combinations of the variant
# table's rows.
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/assemble_template.cmake)
# The parameters every case has; a case adds its own after them (a later
# .set of the same name wins: cases override the 128x128 tile).
set(defaults TRANS_A=0 TRANS_B=0 PAD=4 ACCUM_OFFSET_REQUIRED=0 ARCHITECTED_FLAT_SCRATCH=0 MACRO_TILE=128 MICRO_TILE=8)

file(MAKE_DIRECTORY ${WORK_DIR})
# name | target | parameters (comma separated) | the error
set(cases
  "two_k_alone|gfx906|FMAC=0,B_TWO_K=1|error: B_TWO_K=1 needs B_QUAD_SHARED=1"
  "a_row_alone|gfx906|FMAC=0,B_QUAD_SHARED=1,A_ROW_SHARED=1|error: A_ROW_SHARED=1 needs B_TWO_K=1"
  "a_half_alone|gfx906|FMAC=0,A_HALF_SHARED=1|error: A_HALF_SHARED=1 needs A_ROW_SHARED=1"
  "broadcast_and_quad|gfx90a|FMAC=0,ROW_NEWBCAST=1,B_QUAD_SHARED=1,B_ROW_BROADCAST=1|error: B_ROW_BROADCAST=1 excludes B_QUAD_SHARED"
  "broadcast_gfx906|gfx906|FMAC=0,B_ROW_BROADCAST=1|error: B_ROW_BROADCAST=1 (variant bcast) needs DPP row_newbcast"
  "packed_shared|gfx90a|PACKED=1,FMAC=1,B_QUAD_SHARED=1|error: PACKED=1 excludes B_QUAD_SHARED"
  "not_boolean|gfx906|FMAC=0,B_QUAD_SHARED=2|error: B_QUAD_SHARED must be 0 or 1"
  "dpp_number|gfx906|FMAC=0,DPP=1|error: DPP is not a template parameter"
  "denormals_with_mac|gfx906|FMAC=0,FP32_DENORMALS=1|error: FP32_DENORMALS must be 0 or 1, and 1 needs FMAC=1"
  "fmac_gfx900|gfx900|FMAC=1|error: FMAC=1: v_fmac_f32 does not exist on gfx900"
  "tile_mismatch|gfx906|FMAC=0,MACRO_TILE=128,MICRO_TILE=4|error: MACRO_TILE and MICRO_TILE must be 128 and 8, 64 and 4, or 32 and 2"
  "tile_other|gfx906|FMAC=0,MACRO_TILE=96,MICRO_TILE=6|error: MACRO_TILE and MICRO_TILE must be 128 and 8, 64 and 4, or 32 and 2"
  "tile_32_micro_4|gfx906|FMAC=0,MACRO_TILE=32,MICRO_TILE=4|error: MACRO_TILE and MICRO_TILE must be 128 and 8, 64 and 4, or 32 and 2"
  "tile_64_micro_2|gfx906|FMAC=0,MACRO_TILE=64,MICRO_TILE=2|error: MACRO_TILE and MICRO_TILE must be 128 and 8, 64 and 4, or 32 and 2"
  "micro4_a_row|gfx906|FMAC=0,MACRO_TILE=64,MICRO_TILE=4,B_QUAD_SHARED=1,B_TWO_K=1,A_ROW_SHARED=1|error: MICRO_TILE=4 and MICRO_TILE=2 take no A_ROW_SHARED, B_ROW_BROADCAST or PACKED"
  "micro4_packed|gfx90a|FMAC=1,MACRO_TILE=64,MICRO_TILE=4,PACKED=1|error: MICRO_TILE=4 and MICRO_TILE=2 take no A_ROW_SHARED, B_ROW_BROADCAST or PACKED"
  "micro2_a_row|gfx906|FMAC=0,MACRO_TILE=32,MICRO_TILE=2,B_QUAD_SHARED=1,B_TWO_K=1,A_ROW_SHARED=1|error: MICRO_TILE=4 and MICRO_TILE=2 take no A_ROW_SHARED, B_ROW_BROADCAST or PACKED"
  "micro2_broadcast|gfx90a|FMAC=0,ROW_NEWBCAST=1,MACRO_TILE=32,MICRO_TILE=2,B_ROW_BROADCAST=1|error: MICRO_TILE=4 and MICRO_TILE=2 take no A_ROW_SHARED, B_ROW_BROADCAST or PACKED"
  "micro2_packed|gfx90a|FMAC=1,MACRO_TILE=32,MICRO_TILE=2,PACKED=1|error: MICRO_TILE=4 and MICRO_TILE=2 take no A_ROW_SHARED, B_ROW_BROADCAST or PACKED"
  "micro2_mfma|gfx90a|FMAC=1,MACRO_TILE=32,MICRO_TILE=2,MFMA=1|error: MFMA=1 needs MACRO_TILE=128 and MICRO_TILE=8"
  "unroll_16|gfx906|FMAC=0,K_UNROLL=16|error: K_UNROLL must be 8")
foreach(case IN LISTS cases)
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 target)
  list(GET fields 2 params)
  list(GET fields 3 expected)
  string(REPLACE "," ";" params "${params}")
  assemble_template(${name} ${target} "${defaults};${params}" output result)
  if(result EQUAL 0)
    message(FATAL_ERROR "${name}: ${params} assembled for ${target}")
  endif()
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: the output lacks\n  ${expected}\n${output}")
  endif()
endforeach()
assemble_template(dpp3half gfx906 "${defaults};FMAC=1;FP32_DENORMALS=1;B_QUAD_SHARED=1;B_TWO_K=1;A_ROW_SHARED=1;A_HALF_SHARED=1" output result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the dpp3half_denorm parameters do not assemble for gfx906:\n${output}")
endif()
assemble_template(dpp0_32 gfx906 "${defaults};FMAC=0;MACRO_TILE=32;MICRO_TILE=2" output result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the dpp0_32 parameters do not assemble for gfx906:\n${output}")
endif()
assemble_template(dpp2_64 gfx906 "${defaults};FMAC=0;MACRO_TILE=64;MICRO_TILE=4;B_QUAD_SHARED=1;B_TWO_K=1" output result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the dpp2_64 parameters do not assemble for gfx906:\n${output}")
endif()
