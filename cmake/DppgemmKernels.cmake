# Assembling the kernel template into code objects.
#
# dppgemm_add_code_object(<out-var>
#     NAME <kernel symbol> TARGET <gfxNNN> TEMPLATE <file.s>
#     PARAMS <PARAM=VALUE>...)
# instantiates TEMPLATE with the given template parameters (each one becomes a
# `.set PARAM, VALUE` line of a generated wrapper that includes the template),
# assembles it with the clang that knows TARGET, links it with the matching
# ld.lld, and sets <out-var> to the code object's path. Assembler warnings are
# errors, and assembler messages reach the build log unchanged.

# DPPGEMM_KERNELS_FROM=<build tree>: take each code object from another build
# tree of the same source (the same path in it, asm/<target>/<name>.co) instead of assembling
# it again, after checking that it was assembled from the same wrapper text
# and after the template's last change (cmake/CopyCodeObject.cmake). For a
# second tree with other compiler flags (tools/quickstart's sanitized tree),
# which would otherwise spend a minute and a half assembling the same bytes.
set(DPPGEMM_KERNELS_FROM "" CACHE PATH
    "A build tree of this source whose assembled kernels this tree copies (empty: assemble them)")
if(DPPGEMM_KERNELS_FROM AND NOT EXISTS ${DPPGEMM_KERNELS_FROM}/CMakeCache.txt)
  message(FATAL_ERROR "DPPGEMM_KERNELS_FROM: '${DPPGEMM_KERNELS_FROM}' is not a configured build tree (no CMakeCache.txt)")
endif()

# Stops at the first of `items` that is not in the list `known`, with
# `message` ('<item>' replaced by that item).
function(dppgemm_require_each_in items known message)
  foreach(item ${items})
    if(NOT item IN_LIST known)
      string(REPLACE "<item>" "${item}" text "${message}")
      message(FATAL_ERROR "${text}")
    endif()
  endforeach()
endfunction()

# Matches `line`, a row of the table `file`, against `regex`, handing its
# groups to the caller as CMAKE_MATCH_1..9; stops naming the file, the row
# and the form `form` a row of kind `kind` must have when it does not match.
function(_dppgemm_match_row file kind form regex line)
  # The scope starts with the caller's groups; a group matching nothing must not keep them.
  foreach(group RANGE 1 9)
    set(CMAKE_MATCH_${group} "")
  endforeach()
  if(NOT line MATCHES "${regex}")
    message(FATAL_ERROR "${file}: malformed ${kind} row (want ${form}):\n  ${line}")
  endif()
  foreach(group RANGE 1 9)
    set(CMAKE_MATCH_${group} "${CMAKE_MATCH_${group}}" PARENT_SCOPE)
  endforeach()
endfunction()

# The target table, include/dppgemm/targets.def (also read by C++ and by the
# op-table generator): DPPGEMM_KNOWN_FEATURES (the DPPGEMM_FEATURE names),
# DPPGEMM_TARGET_FEATURES_<target>, DPPGEMM_TARGET_LLVM_<target> (the LLVM
# major version that assembles it) and DPPGEMM_KERNEL_TARGETS (the rows with
# kernels = 1, in table order).
set(DPPGEMM_TARGET_TABLE_FILE ${CMAKE_CURRENT_LIST_DIR}/../include/dppgemm/targets.def)
function(dppgemm_read_target_table file)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  file(STRINGS ${file} feature_lines REGEX "^DPPGEMM_FEATURE\\(")
  set(known)
  foreach(line IN LISTS feature_lines)
    _dppgemm_match_row(${file} feature "DPPGEMM_FEATURE(name, \"meaning\")"
                       "^DPPGEMM_FEATURE\\(([a-z0-9_]+), *\"[^\"]*\"\\)$" "${line}")
    list(APPEND known ${CMAKE_MATCH_1})
  endforeach()
  file(STRINGS ${file} target_lines REGEX "^DPPGEMM_TARGET\\(")
  set(kernel_targets)
  foreach(line IN LISTS target_lines)
    _dppgemm_match_row(${file} target "DPPGEMM_TARGET(gfxNNN, 0xMACH, llvm, 0|1, \"feature ...\", lds_banks)"
                       "^DPPGEMM_TARGET\\((gfx[0-9a-f]+), *0x[0-9a-f]+, *([0-9]+), *([01]), *\"([a-z0-9_ ]*)\", *[a-z0-9_]+\\)$"
                       "${line}")
    set(target ${CMAKE_MATCH_1})
    set(llvm ${CMAKE_MATCH_2})
    set(kernels ${CMAKE_MATCH_3})
    string(REGEX REPLACE " +" ";" features "${CMAKE_MATCH_4}")
    list(REMOVE_ITEM features "")
    dppgemm_require_each_in("${features}" "${known}"
                            "${file}: target ${target} lists feature '<item>', which has no DPPGEMM_FEATURE row")
    set(DPPGEMM_TARGET_FEATURES_${target} ${features} PARENT_SCOPE)
    set(DPPGEMM_TARGET_LLVM_${target} ${llvm} PARENT_SCOPE)
    if(kernels)
      list(APPEND kernel_targets ${target})
    endif()
  endforeach()
  set(DPPGEMM_KNOWN_FEATURES ${known} PARENT_SCOPE)
  set(DPPGEMM_KERNEL_TARGETS ${kernel_targets} PARENT_SCOPE)
endfunction()
dppgemm_read_target_table(${DPPGEMM_TARGET_TABLE_FILE})

# 1 when `feature` is in the list `features`, else 0 (a template parameter's value).
function(_dppgemm_has_feature out_var features feature)
  set(${out_var} 0 PARENT_SCOPE)
  if(feature IN_LIST features)
    set(${out_var} 1 PARENT_SCOPE)
  endif()
endfunction()

# The template parameters a target implies (every template receives them).
function(dppgemm_target_params target out_var)
  if(NOT DEFINED DPPGEMM_TARGET_LLVM_${target})
    message(FATAL_ERROR "dppgemm: target '${target}' has no row in the target table (include/dppgemm/targets.def)")
  endif()
  set(features ${DPPGEMM_TARGET_FEATURES_${target}})
  # The kernels keep v_mac_f32 where it exists (the bit-exact reference follows
  # the target's multiply-add), and fall back to the fused v_fmac_f32.
  _dppgemm_has_feature(has_mac "${features}" mac_f32)
  math(EXPR fmac "1 - ${has_mac}")
  _dppgemm_has_feature(accum "${features}" unified_vgpr_file)
  _dppgemm_has_feature(arch_flat_scratch "${features}" architected_flat_scratch)
  _dppgemm_has_feature(row_newbcast "${features}" row_newbcast)
  set(${out_var} FMAC=${fmac} ACCUM_OFFSET_REQUIRED=${accum} ARCHITECTED_FLAT_SCRATCH=${arch_flat_scratch}
      ROW_NEWBCAST=${row_newbcast} PARENT_SCOPE)
endfunction()

# The features of `features` that `target` lacks (empty: the target has them all).
function(dppgemm_missing_features target features out_var)
  set(missing)
  foreach(feature ${features})
    if(NOT feature IN_LIST DPPGEMM_TARGET_FEATURES_${target})
      list(APPEND missing ${feature})
    endif()
  endforeach()
  set(${out_var} ${missing} PARENT_SCOPE)
endfunction()

# dppgemm_read_variant_table(<file>) sets DPPGEMM_VARIANT_TABLE (the names, in
# row order) and, per name, DPPGEMM_VARIANT_<name>_TEMPLATE / _DEFINES (a list
# of NAME=VALUE, with MACRO_TILE and MICRO_TILE from their columns) / _FEATURES
# (a list) / _MACRO_TILE / _MICRO_TILE / _REQUESTS / _EXTRA_VALU / _IDEA.
function(dppgemm_read_variant_table file)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  file(STRINGS ${file} lines REGEX "^[ \t]*DPPGEMM_VARIANT[ \t]*\\(")
  set(name_re "[A-Za-z_][A-Za-z0-9_]*")
  set(str_re "\"([^\"]*)\"")
  set(row_re "^[ \t]*DPPGEMM_VARIANT\\((${name_re}), *${str_re}, *${str_re}, *${str_re}, *([0-9]+), *([0-9]+), *([0-9]+), *(-?[0-9]+), *${str_re}\\)[ \t]*$")
  set(names)
  foreach(line IN LISTS lines)
    _dppgemm_match_row(${file} variant
                       "DPPGEMM_VARIANT(name, \"template.s\", \"NAME=VALUE ...\", \"feature ...\", macro_tile, micro_tile, requests, extra_valu, \"idea\")"
                       "${row_re}" "${line}")
    set(name ${CMAKE_MATCH_1})
    set(template_file "${CMAKE_MATCH_2}")
    set(defines "${CMAKE_MATCH_3}")
    set(features "${CMAKE_MATCH_4}")
    set(macro_tile "${CMAKE_MATCH_5}")
    set(micro_tile "${CMAKE_MATCH_6}")
    set(requests "${CMAKE_MATCH_7}")
    set(extra_valu "${CMAKE_MATCH_8}")
    set(idea "${CMAKE_MATCH_9}")
    if(name IN_LIST names OR name STREQUAL "best")
      message(FATAL_ERROR "${file}: variant '${name}' is declared twice or uses a reserved name")
    endif()
    list(APPEND names ${name})
    string(REGEX REPLACE "[ \t]+" ";" defines "${defines}")
    string(REGEX REPLACE "[ \t]+" ";" features "${features}")
    list(REMOVE_ITEM defines "")
    list(REMOVE_ITEM features "")
    foreach(define ${defines})
      if(NOT define MATCHES "^[A-Za-z_][A-Za-z0-9_]*=[^=]+$")
        message(FATAL_ERROR "${file}: variant '${name}': template parameter '${define}' is not NAME=VALUE")
      endif()
      if(define MATCHES "^(MACRO_TILE|MICRO_TILE)=")
        message(FATAL_ERROR "${file}: variant '${name}': '${define}' belongs in the row's macro_tile / micro_tile column")
      endif()
    endforeach()
    # The tile columns are template parameters too.
    list(APPEND defines MACRO_TILE=${macro_tile} MICRO_TILE=${micro_tile})
    dppgemm_require_each_in("${features}" "${DPPGEMM_KNOWN_FEATURES}"
                            "${file}: variant '${name}' needs feature '<item>', which the target table \
(cmake/DppgemmKernels.cmake) does not know: ${DPPGEMM_KNOWN_FEATURES}")
    set(DPPGEMM_VARIANT_${name}_TEMPLATE "${template_file}" PARENT_SCOPE)
    set(DPPGEMM_VARIANT_${name}_DEFINES "${defines}" PARENT_SCOPE)
    set(DPPGEMM_VARIANT_${name}_FEATURES "${features}" PARENT_SCOPE)
    set(DPPGEMM_VARIANT_${name}_MACRO_TILE "${macro_tile}" PARENT_SCOPE)
    set(DPPGEMM_VARIANT_${name}_MICRO_TILE "${micro_tile}" PARENT_SCOPE)
    set(DPPGEMM_VARIANT_${name}_REQUESTS "${requests}" PARENT_SCOPE)
    set(DPPGEMM_VARIANT_${name}_EXTRA_VALU "${extra_valu}" PARENT_SCOPE)
    set(DPPGEMM_VARIANT_${name}_IDEA "${idea}" PARENT_SCOPE)
  endforeach()
  if(NOT names)
    message(FATAL_ERROR "${file}: no DPPGEMM_VARIANT rows")
  endif()
  set(DPPGEMM_VARIANT_TABLE ${names} PARENT_SCOPE)
endfunction()

# One clang and ld.lld per LLVM version the kernel targets name (targets.def).
set(DPPGEMM_KERNEL_LLVM_VERSIONS)
foreach(target ${DPPGEMM_KERNEL_TARGETS})
  list(APPEND DPPGEMM_KERNEL_LLVM_VERSIONS ${DPPGEMM_TARGET_LLVM_${target}})
endforeach()
list(REMOVE_DUPLICATES DPPGEMM_KERNEL_LLVM_VERSIONS)
foreach(version ${DPPGEMM_KERNEL_LLVM_VERSIONS})
  find_program(DPPGEMM_CLANG${version} NAMES clang-${version} REQUIRED)
  find_program(DPPGEMM_LLD${version} NAMES ld.lld-${version} REQUIRED)
endforeach()

function(dppgemm_toolchain_for target clang_var lld_var)
  set(version ${DPPGEMM_TARGET_LLVM_${target}})
  if(NOT version OR NOT DPPGEMM_CLANG${version})
    message(FATAL_ERROR "dppgemm: no toolchain for target '${target}' (not a kernel target of include/dppgemm/targets.def)")
  endif()
  set(${clang_var} ${DPPGEMM_CLANG${version}} PARENT_SCOPE)
  set(${lld_var} ${DPPGEMM_LLD${version}} PARENT_SCOPE)
endfunction()

function(dppgemm_add_code_object out_var)
  cmake_parse_arguments(CO "" "NAME;TARGET;TEMPLATE" "PARAMS" ${ARGN})
  foreach(required NAME TARGET TEMPLATE)
    if(NOT CO_${required})
      message(FATAL_ERROR "dppgemm_add_code_object: ${required} is missing")
    endif()
  endforeach()
  dppgemm_toolchain_for(${CO_TARGET} clang lld)

  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${CO_TARGET})
  set(wrapper ${dir}/${CO_NAME}.s)
  set(object ${dir}/${CO_NAME}.o)
  set(code_object ${dir}/${CO_NAME}.co)

  set(text "// generated by dppgemm_add_code_object: one instance of ${CO_TEMPLATE}\n")
  foreach(param ${CO_PARAMS})
    string(REPLACE "=" ";" kv "${param}")
    list(GET kv 0 key)
    list(GET kv 1 value)
    string(APPEND text ".set ${key}, ${value}\n")
  endforeach()
  string(APPEND text ".include \"${CO_TEMPLATE}\"\ndppgemm_sgemm ${CO_NAME}\n")
  file(GENERATE OUTPUT ${wrapper} CONTENT "${text}")

  if(DPPGEMM_KERNELS_FROM)
    # The same kernel, assembled by the other build tree from the same wrapper.
    file(RELATIVE_PATH relative_dir ${PROJECT_BINARY_DIR} ${dir})
    set(source_dir ${DPPGEMM_KERNELS_FROM}/${relative_dir})
    add_custom_command(
      OUTPUT ${code_object}
      COMMAND ${CMAKE_COMMAND} -DFROM=${source_dir}/${CO_NAME} -DTO=${dir}/${CO_NAME} -DTEMPLATE=${CO_TEMPLATE}
              -P ${PROJECT_SOURCE_DIR}/cmake/CopyCodeObject.cmake
      DEPENDS ${source_dir}/${CO_NAME}.co ${wrapper} ${CO_TEMPLATE} ${PROJECT_SOURCE_DIR}/cmake/CopyCodeObject.cmake
      COMMENT "Copying ${CO_TARGET}/${CO_NAME}.co from ${DPPGEMM_KERNELS_FROM}"
      VERBATIM)
  else()
    add_custom_command(
      OUTPUT ${code_object}
      COMMAND ${clang} -x assembler -target amdgcn-amd-amdhsa -mcpu=${CO_TARGET}
              -Wa,--fatal-warnings -c ${wrapper} -o ${object}
      COMMAND ${lld} -shared --fatal-warnings ${object} -o ${code_object}
      DEPENDS ${wrapper} ${CO_TEMPLATE}
      COMMENT "Assembling ${CO_TARGET}/${CO_NAME}.co"
      VERBATIM)
  endif()
  set(${out_var} ${code_object} PARENT_SCOPE)
endfunction()

# dppgemm_embed_code_objects(<target> ENTRIES <name|target|variant|layout|file>...)
# builds a static library <target> holding every code object as bytes, with the
# table behind include/dppgemm/code_objects.h.
function(dppgemm_embed_code_objects lib)
  cmake_parse_arguments(EMB "" "" "ENTRIES" ${ARGN})
  set(files)
  set(manifest "")
  foreach(entry ${EMB_ENTRIES})
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 4 file)
    list(APPEND files ${file})
    string(APPEND manifest "${entry}\n")
  endforeach()
  set(manifest_file ${CMAKE_CURRENT_BINARY_DIR}/code_objects.manifest)
  file(GENERATE OUTPUT ${manifest_file} CONTENT "${manifest}")
  set(source ${CMAKE_CURRENT_BINARY_DIR}/code_objects_table.cpp)
  add_custom_command(
    OUTPUT ${source}
    COMMAND ${CMAKE_COMMAND} -DMANIFEST=${manifest_file} -DOUTPUT=${source}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedCodeObjects.cmake
    DEPENDS ${files} ${manifest_file} ${PROJECT_SOURCE_DIR}/cmake/EmbedCodeObjects.cmake
            ${PROJECT_SOURCE_DIR}/cmake/DppgemmFields.cmake
    COMMENT "Embedding the kernel code objects into ${lib}"
    VERBATIM)
  add_library(${lib} STATIC ${source} ${PROJECT_SOURCE_DIR}/asm/code_objects.cpp)
  target_include_directories(${lib} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endfunction()
