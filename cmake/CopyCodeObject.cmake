# cmake -DFROM=<dir/name> -DTO=<dir/name> -DTEMPLATE=<file.s> -P CopyCodeObject.cmake
# Copies FROM.co to TO.co (DPPGEMM_KERNELS_FROM, cmake/DppgemmKernels.cmake)
# when FROM.s, the other tree's wrapper, is TO.s byte for byte (same
# template path and parameters) and FROM.co is newer than the template:
# anything else would copy a kernel other than the one this tree describes.
foreach(file ${FROM}.s ${FROM}.co)
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "${file} does not exist: build that tree's kernels first")
  endif()
endforeach()
file(READ ${FROM}.s theirs)
file(READ ${TO}.s ours)
if(NOT theirs STREQUAL ours)
  message(FATAL_ERROR "${FROM}.s differs from ${TO}.s: that tree was configured from another source or with "
                      "other parameters; unset DPPGEMM_KERNELS_FROM to assemble here")
endif()
if(${TEMPLATE} IS_NEWER_THAN ${FROM}.co)
  message(FATAL_ERROR "${FROM}.co is older than ${TEMPLATE}: build that tree's kernels first")
endif()
file(COPY_FILE ${FROM}.co ${TO}.co)
