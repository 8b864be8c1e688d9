# assemble_template(<name> <target> <params> <out_var> <result_var>): assembles
# the template ${TEMPLATE}'s kernel for <target> with ${CLANG}, each NAME=value
# of the list <params> a `.set` before it, as ${WORK_DIR}/<name>.s and .o;
# sets <out_var> to the assembler's output and <result_var> to its exit status.
function(assemble_template name target params out_var result_var)
  set(wrapper ${WORK_DIR}/${name}.s)
  set(text "")
  foreach(param ${params})
    string(REPLACE "=" ", " param "${param}")
    string(APPEND text ".set ${param}\n")
  endforeach()
  string(APPEND text ".include \"${TEMPLATE}\"\ndppgemm_sgemm k\n")
  file(WRITE ${wrapper} "${text}")
  execute_process(COMMAND ${CLANG} -x assembler -target amdgcn-amd-amdhsa -mcpu=${target} -Wa,--fatal-warnings
                          -c ${wrapper} -o ${WORK_DIR}/${name}.o
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE result)
  set(${out_var} "${out}${err}" PARENT_SCOPE)
  set(${result_var} ${result} PARENT_SCOPE)
endfunction()
