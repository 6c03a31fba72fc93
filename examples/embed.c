/* embed.c - spirv-sg embedded in a program of your own, built out of tree
 * against the installed library:
 *
 *   cc -o embed embed.c $(pkg-config --cflags --libs spirv-sg)
 *   ./embed tests/icd/sg_reduce.cl
 *
 * Loads an OpenCL C file (or .spv / .spvasm) with a kernel
 * sg_sum(global const uint *in, global uint *out), runs it on 64 work-items
 * in subgroups of 16 and prints each subgroup's sum. */
#include <spirv_sg.h>
#include <stdio.h>

static void on_message(void *user, sg_severity sev, const char *text)
{
  (void)user;
  fprintf(stderr, "%s%s\n", sev == SG_SEV_ERROR ? "error: " : sev == SG_SEV_WARNING ? "warning: " : "", text);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: embed KERNEL.cl\n");
    return 2;
  }
  sg_load_options lo = {.opt_level = -1, .message = on_message};
  sg_module *m = NULL;
  if (sg_module_load_file(argv[1], &lo, &m) != SG_SUCCESS)
    return 2;
  enum { N = 64, S = 16 };
  uint32_t in[N], out[N / S] = {0};
  for (uint32_t i = 0; i < N; i++)
    in[i] = i;
  sg_arg args[2] = {
    {.kind = SG_ARG_BUFFER, .data = in, .size = sizeof in},
    {.kind = SG_ARG_BUFFER, .data = out, .size = sizeof out},
  };
  sg_run_desc d = {
    .kernel = "sg_sum", .work_dim = 1, .global_size = {N, 1, 1}, .local_size = {N, 1, 1},
    .subgroup_size = S, .args = args, .n_args = 2, .backend = SG_BACKEND_INTERP, .threads = 1,
    .repeat = 1, .jit_opt_level = -1, .message = on_message,
  };
  sg_report *rep = NULL;
  char err[512];
  sg_result r = sg_run(m, &d, &rep, err, sizeof err);
  if (r != SG_SUCCESS && r != SG_FAULTED) {
    sg_module_destroy(m);
    return 1;
  }
  for (uint32_t i = 0; i < rep->n_diags; i++)
    fprintf(stderr, "%s\n", rep->diags[i].formatted);
  for (uint32_t i = 0; i < N / S; i++)
    printf("sum of subgroup %u = %u\n", i, out[i]);
  printf("backend %s, subgroup size %u, %llu subgroup-instructions\n", rep->backend, rep->subgroup_size,
         (unsigned long long)rep->insns);
  int rc = rep->status == SG_SUCCESS ? 0 : 1;
  sg_report_destroy(rep);
  sg_module_destroy(m);
  return rc;
}
