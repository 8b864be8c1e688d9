# Reads TABLE with dppgemm_read_variant_table and prints each row and, per
# kernel target, the features it lacks (driven by check_variant_table.cmake).
cmake_minimum_required(VERSION 3.20)
list(APPEND CMAKE_MODULE_PATH ${DPPGEMM_CMAKE_DIR})
include(DppgemmKernels)
dppgemm_read_variant_table(${TABLE})
foreach(v ${DPPGEMM_VARIANT_TABLE})
  message("${v}|${DPPGEMM_VARIANT_${v}_TEMPLATE}|${DPPGEMM_VARIANT_${v}_DEFINES}|${DPPGEMM_VARIANT_${v}_FEATURES}|"
          "${DPPGEMM_VARIANT_${v}_MACRO_TILE}|${DPPGEMM_VARIANT_${v}_MICRO_TILE}|${DPPGEMM_VARIANT_${v}_REQUESTS}|${DPPGEMM_VARIANT_${v}_EXTRA_VALU}|${DPPGEMM_VARIANT_${v}_IDEA}")
  foreach(t ${DPPGEMM_KERNEL_TARGETS})
    dppgemm_missing_features(${t} "${DPPGEMM_VARIANT_${v}_FEATURES}" missing)
    if(missing)
      message("  ${v} not on ${t}: ${missing}")
    endif()
  endforeach()
endforeach()
