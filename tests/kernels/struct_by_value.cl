// A struct argument passed by value (llvm-spirv: a ByVal pointer to Function
// storage), given in the run file as three floats, as oclgrind-kernel run
// files do.  Each work-item has its own copy: writing it changes nothing for
// the others.
typedef struct { float a, b, c; } Structure;
typedef struct { int n; float scale; short off; } Mixed;

kernel void sbv_read(Structure x, global float *out)
{
  out[get_global_id(0)] = x.a * x.b + x.c;
}

kernel void sbv_write(Structure x, global float *out)
{
  size_t i = get_global_id(0);
  x.a += (float)i;
  out[i] = x.a * x.b + x.c;
}

static float apply(Mixed m, int v) { return (float)(v * m.n + m.off) * m.scale; }

kernel void sbv_mixed(global const int *in, Mixed m, global float *out)
{
  size_t i = get_global_id(0);
  out[i] = apply(m, in[i]);
}
