# dppgemm_fields(<source> <line> <separator> <var>...)
#   Splits <line> of the file <source> at <separator> into one field per
#   <var> and sets each <var> to its field in the caller's scope. A line with
#   another number of fields is a fatal error naming the file and the line.
#   Used by configure-time and script-mode (-P) code alike.
include_guard(GLOBAL)
function(dppgemm_fields source line separator)
  set(names ${ARGN})
  string(REPLACE "${separator}" ";" fields "${line}")
  list(LENGTH fields count)
  list(LENGTH names expected)
  if(NOT count EQUAL expected)
    string(REPLACE ";" "${separator}" form "${names}")
    message(FATAL_ERROR "${source}: '${line}' has ${count} fields, not ${expected} (${form})")
  endif()
  foreach(name field IN ZIP_LISTS names fields)
    set(${name} "${field}" PARENT_SCOPE)
  endforeach()
endfunction()
