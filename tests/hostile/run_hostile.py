#!/usr/bin/env python3
"""Hostile inputs for spirv-sgrun, spirv-sgconform and spirv-sgdb (issue 13): every kind of malformed or huge
input a buggy compiler, a script or a fuzzer gives it.

Each case states the exit status the contract names (0 a correct run, 1 a
fault in the kernel, 2 a clear error; 3 unsupported) and a fragment of the
message (a regular expression, matched against stderr + stdout), and runs
under a time bound.  Every case also checks: no signal, no sanitizer report,
no raw control byte on stderr (user input is escaped), and for exit 2 one
error line.  The expected values are written by hand from the contract and
docs/limits.md, never taken from a run.

A case's argv starts with SGCONFORM or SGDB to run that tool instead of
spirv-sgrun (the same contract: exit 2 for bad input, 1 for a limit reached
in the kernel; spirv-sgdb's session itself exits 0 and prints the fault).

Usage: run_hostile.py --sgrun build/src/spirv-sgrun [--sgconform build/conformance/spirv-sgconform]
                      [--sgdb build/src/spirv-sgdb] [--work DIR] [-v] [-k PATTERN]
"""
import argparse
import os
import pty
import random
import re
import select
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs")
TOP = os.path.dirname(os.path.dirname(HERE))

# Sanitized builds are several times slower: the bounds scale with this.
SLOW = float(os.environ.get("SG_HOSTILE_SLOW", "1"))
SGCONFORM, SGDB = "@spirv-sgconform", "@spirv-sgdb"   # argv[0] markers: run that tool


def words(b):
    return list(struct.unpack("<%dI" % (len(b) // 4), b[:len(b) // 4 * 4]))


def pack(ws):
    return struct.pack("<%dI" % len(ws), *ws)


def insns(ws):
    """(index, opcode, word count) of every instruction."""
    out, i = [], 5
    while i < len(ws):
        op, n = ws[i] & 0xFFFF, ws[i] >> 16
        if n == 0:
            break
        out.append((i, op, n))
        i += n
    return out


def first(ws, opcode):
    for i, op, n in insns(ws):
        if op == opcode:
            return i, n
    raise RuntimeError("opcode %d not in the good module" % opcode)


def cstr(s):
    """A SPIR-V literal string's words."""
    b = s + b"\0" * (4 - len(s) % 4)
    return list(struct.unpack("<%dI" % (len(b) // 4), b))


# OpenCL.std templates: %RES = OpExtInst ... with operand types to vary.
EXT_TEMPLATE = """               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
          %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "ext"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
      %float = OpTypeFloat 32
     %v2uint = OpTypeVector %uint 2
     %v4uint = OpTypeVector %uint 4
    %v2float = OpTypeVector %float 2
    %v4float = OpTypeVector %float 4
%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_cw_uint
     %uint_1 = OpConstant %uint 1
    %uchar_1 = OpConstant %uchar 1
    %float_1 = OpConstant %float 1
     %v2u_1 = OpConstantComposite %v2uint %uint_1 %uint_1
     %v4u_1 = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1
     %v2f_1 = OpConstantComposite %v2float %float_1 %float_1
     %v4f_1 = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr_cw_uint
      %entry = OpLabel
          %r = OpExtInst {INSN}
               OpReturn
               OpFunctionEnd
"""


# Elementwise instructions with operands of the wrong shape (the open
# differential finding of the first fuzz campaign: a vec2 OpFMul by a scalar
# read past the scalar on the interpreter, the JIT broadcast it).
EW_TEMPLATE = EXT_TEMPLATE.replace("       %uint = OpTypeInt 32 0\n",
                                   "       %uint = OpTypeInt 32 0\n       %bool = OpTypeBool\n") \
    .replace("     %uint_1 = OpConstant %uint 1\n",
             "     %uint_1 = OpConstant %uint 1\n       %true = OpConstantTrue %bool\n") \
    .replace("%r = OpExtInst {INSN}", "%r = {INSN}")

# A vector load and store that are partly out of bounds (bytes 8..15 of a
# 12-byte buffer): docs/semantics.md, the whole access faults, so the read
# yields zero in both components and the store writes nothing.
PARTIAL_OOB_KERNEL = """               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %out "out"
               OpName %in "in"
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
    %v2float = OpTypeVector %float 2
    %ulong_1 = OpConstant %ulong 1
    %float_1 = OpConstant %float 1
    %float_7 = OpConstant %float 7
    %float_8 = OpConstant %float 8
       %v78 = OpConstantComposite %v2float %float_7 %float_8
     %ptr_f = OpTypePointer CrossWorkgroup %float
    %ptr_v2 = OpTypePointer CrossWorkgroup %v2float
         %fn = OpTypeFunction %void %ptr_f %ptr_f
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_f
         %in = OpFunctionParameter %ptr_f
      %entry = OpLabel
        %inv = OpBitcast %ptr_v2 %in
        %ip1 = OpInBoundsPtrAccessChain %ptr_v2 %inv %ulong_1
          %v = OpLoad %v2float %ip1 Aligned 8
       %outv = OpBitcast %ptr_v2 %out
        %op1 = OpInBoundsPtrAccessChain %ptr_v2 %outv %ulong_1
               OpStore %op1 %v78 Aligned 8
          %x = OpCompositeExtract %float %v 0
          %y = OpCompositeExtract %float %v 1
         %x1 = OpFAdd %float %x %float_1
         %y1 = OpFAdd %float %y %float_1
               OpStore %out %x1 Aligned 4
         %o1 = OpInBoundsPtrAccessChain %ptr_f %out %ulong_1
               OpStore %o1 %y1 Aligned 4
               OpReturn
               OpFunctionEnd
"""


# Constant data: OpConstantNull of arrays of N uints, COUNT of them (the
# fuzz_run OOM inputs: a mutated array length made a 2 GiB constant that
# the loader zeroed, 2.1 GB and 15 s).
def const_kernel(n, count):
    cs = "".join("         %%c%d = OpConstantNull %%arr%d\n" % (i, i % 2) for i in range(count))
    return """               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_n = OpConstant %uint """ + str(n) + """
    %uint_n1 = OpConstant %uint """ + str(n + 1) + """
       %arr0 = OpTypeArray %uint %uint_n
       %arr1 = OpTypeArray %uint %uint_n1
""" + cs + """%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_cw_uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr_cw_uint
      %entry = OpLabel
          %x = OpCompositeExtract %uint %c0 1
               OpStore %p %x
               OpReturn
               OpFunctionEnd
"""


# A kernel that loads a whole array of N uints into one SSA value: its
# register takes N*4 bytes per work-item (the interpreter's frames; the JIT
# keeps no aggregates in values and falls back to the interpreter).
def frame_kernel(n):
    return """               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %x "x"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_n = OpConstant %uint """ + str(n) + """
        %arr = OpTypeArray %uint %uint_n
 %ptr_cw_arr = OpTypePointer CrossWorkgroup %arr
%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_cw_arr %ptr_cw_uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr_cw_arr
          %o = OpFunctionParameter %ptr_cw_uint
      %entry = OpLabel
          %x = OpLoad %arr %p
          %e = OpCompositeExtract %uint %x 1
               OpStore %o %e
               OpReturn
               OpFunctionEnd
"""


def make_inputs(work):
    os.makedirs(work, exist_ok=True)
    f = {}

    def put(name, data):
        path = os.path.join(work, name)
        with open(path, "wb" if isinstance(data, bytes) else "w") as fh:
            fh.write(data)
        f[name] = path
        return path

    good = os.path.join(work, "good.spv")
    p = subprocess.run(["spirv-as", os.path.join(INPUTS, "add_one.spvasm"), "-o", good],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise RuntimeError("spirv-as failed:\n" + p.stdout.decode(errors="replace"))
    f["good.spv"] = good
    spv = open(good, "rb").read()
    ws = words(spv)
    rnd = random.Random(13)

    # -- truncated and malformed binaries
    put("empty.spv", b"")
    put("three_bytes.spv", spv[:3])
    put("header_only.spv", spv[:20])
    put("half_header.spv", spv[:12])
    put("truncated_mid.spv", spv[:len(spv) // 2])
    put("not_aligned.spv", spv + b"\x01")
    put("bad_magic.spv", pack([0xDEADBEEF]) + spv[4:])
    put("big_endian.spv", struct.pack(">%dI" % len(ws), *ws))
    put("bound_zero.spv", pack(ws[:3] + [0] + ws[4:]))
    put("bound_huge.spv", pack(ws[:3] + [0xFFFFFFFF] + ws[4:]))
    put("bound_small.spv", pack(ws[:3] + [3] + ws[4:]))
    put("version_bad.spv", pack(ws[:1] + [0x00630000] + ws[2:]))
    w = list(ws); i, n = first(w, 17)                 # OpCapability: word count 0
    w[i] = 17
    put("count_zero.spv", pack(w))
    w = list(ws); i, n = first(w, 56)                 # OpFunctionEnd: count past the end
    w[-1] = (0xFFFF << 16) | 56
    put("count_past_end.spv", pack(w))
    w = list(ws); i, n = first(w, 61)                 # OpLoad pointer operand past the bound
    w[i + 3] = ws[3] + 1000
    put("id_past_bound.spv", pack(w))
    w = list(ws); i, n = first(w, 61)                 # OpLoad of a type id
    w[i + 3] = w[first(w, 21)[0] + 1]
    put("load_of_type.spv", pack(w))
    w = list(ws); i, n = first(w, 128)                # OpIAdd result type: a pointer
    w[i + 1] = w[first(w, 32)[0] + 1]
    put("iadd_pointer_type.spv", pack(w))
    put("random_bytes.spv", bytes(rnd.randrange(256) for _ in range(4096)))
    put("random_after_magic.spv", spv[:20] + bytes(rnd.randrange(256) for _ in range(4000)))
    put("all_ones.spv", spv[:20] + b"\xff" * 4000)
    w = list(ws); i, n = first(w, 21)                 # OpTypeInt width 0
    w[i + 2] = 0
    put("int_width_zero.spv", pack(w))
    w = list(ws); i, n = first(w, 21)                 # OpTypeInt width 2^32-1
    w[i + 2] = 0xFFFFFFFF
    put("int_width_huge.spv", pack(w))
    w = list(ws); i, n = first(w, 23)                 # OpTypeVector of 2^32-1 components
    w[i + 3] = 0xFFFFFFFF
    put("vector_huge.spv", pack(w))
    w = list(ws); i, n = first(w, 32)                 # pointer to itself (cyclic type)
    w[i + 3] = w[i + 1]
    put("pointer_cycle.spv", pack(w))
    w = list(ws); i, n = first(w, 33)                 # function type returning itself
    w[i + 2] = w[i + 1]
    put("fntype_cycle.spv", pack(w))
    w = list(ws); i, n = first(w, 12)                 # OpExtInst: unknown set id
    w[i + 3] = w[i + 2]
    put("extinst_self_set.spv", pack(w))
    w = list(ws); i, n = first(w, 12)                 # OpExtInst: instruction 9999
    w[i + 4] = 9999
    put("extinst_unknown.spv", pack(w))
    w = list(ws); i, n = first(w, 12)                 # OpExtInst u_max with one operand
    w = w[:i] + [((n - 1) << 16) | 12] + w[i + 1:i + n - 1] + w[i + n:]
    put("extinst_missing_operand.spv", pack(w))
    w = list(ws); i, n = first(w, 15)                 # OpEntryPoint name: not UTF-8, no NUL
    name = cstr(b"add_one")
    bad = [0x1B5B3331, 0xFFFEFDFC]
    w = w[:i] + [((n - len(name) + len(bad)) << 16) | 15] + w[i + 1:i + 3] + bad + w[i + 3 + len(name):i + n] + w[i + n:]
    put("entry_name_binary.spv", pack(w))
    w = list(ws); i, n = first(w, 5)                  # an OpName without its NUL
    w = w[:i + 2] + [0x41414141] * (n - 2) + w[i + n:]
    put("name_no_nul.spv", pack(w))
    # a module of OpNop (the 200 MB module of finding 3, scaled down; the
    # limits are lowered on the command line)
    i, n = first(ws, 56)
    put("nops.spv", pack(ws[:i - 1] + [0x00010000] * 20000 + ws[i - 1:]))
    # deep nesting: 2000 nested array types
    i, n = first(ws, 33)
    b = ws[3]
    nest, prev = [], ws[first(ws, 21)[0] + 1]
    c1 = b
    nest += [(4 << 16) | 43, prev, c1, 1]             # OpConstant %uint 1
    for d in range(2000):
        t = b + 1 + d
        nest += [(4 << 16) | 28, t, prev, c1]         # OpTypeArray
        prev = t
    w = ws[:3] + [b + 2001] + ws[4:i] + nest + ws[i:]
    put("deep_arrays.spv", pack(w))
    # a self-recursive function (the kernel calls itself)
    f_ = os.path.join(INPUTS, "add_one.spvasm")
    src = open(f_).read()
    put("recursive.spvasm", src.replace("          %m = OpExtInst %uint %std u_max %y %x",
                                        "          %m = OpExtInst %uint %std u_max %y %x\n"
                                        "         %rc = OpFunctionCall %void %k %in %out %n"))
    # call arguments that are not values of the parameter's type (fuzz_diff,
    # session 19: a type id passed for a uint)
    for nm, args in [("call_arg_type", "%in %out %uint"), ("call_arg_mismatch", "%in %out %i")]:
        put(nm + ".spvasm", src.replace("          %m = OpExtInst %uint %std u_max %y %x",
                                        "          %m = OpExtInst %uint %std u_max %y %x\n"
                                        "         %rc = OpFunctionCall %void %k " + args))
    # loads and stores of another type than the pointee (fuzz_diff, session
    # 20: a ulong3 stored through a uint pointer wrote different bytes on
    # the two backends)
    assert "               OpStore %outp %m" in src and "          %x = OpLoad %uint %inp" in src
    put("store_wider.spvasm", src.replace("               OpStore %outp %m", "               OpStore %outp %i"))
    put("load_wider.spvasm", src.replace("          %x = OpLoad %uint %inp",
                                         "         %xl = OpLoad %ulong %inp\n"
                                         "          %x = OpUConvert %uint %xl"))
    # values used where their definitions do not dominate (fuzz_diff,
    # session 19): in a merge block the defining arm does not dominate, and
    # as an OpPhi value from a parent it does not dominate
    tail = "          %m = OpExtInst %uint %std u_max %y %x\n               OpStore %outp %m\n               OpReturn"
    assert tail in src
    for nm, use in [("dom_merge", "          %m = OpExtInst %uint %std u_max %va %x\n"),
                    ("dom_phi", "          %m = OpPhi %uint %va %entry %va %arm\n")]:
        put(nm + ".spvasm", src.replace(tail,
            "               OpSelectionMerge %mg None\n               OpSwitch %x %mg 0 %arm\n"
            "        %arm = OpLabel\n         %va = OpIAdd %uint %y %n\n               OpBranch %mg\n"
            "         %mg = OpLabel\n" + use + "               OpStore %outp %m\n               OpReturn"))
    # a block label read as a value (fuzz_run, session 19)
    put("label_operand.spvasm", src.replace("          %m = OpExtInst %uint %std u_max %y %x\n",
                                            "          %m = OpExtInst %uint %std u_max %y %x\n"
                                            "        %bad = OpBitcast %uint %entry\n"))
    # an infinite loop
    put("loop.spvasm", src.replace("               OpStore %outp %m\n               OpReturn",
                                   "               OpStore %outp %m\n               OpBranch %spin\n"
                                   "       %spin = OpLabel\n               OpBranch %spin"))
    # a chain of branches without a loop (the JIT counts none unless the step
    # limit is below their bound)
    put("chain.spvasm", src.replace("               OpStore %outp %m\n               OpReturn",
                                    "               OpStore %outp %m\n               OpBranch %b1\n"
                                    "         %b1 = OpLabel\n               OpBranch %b2\n"
                                    "         %b2 = OpLabel\n               OpBranch %b3\n"
                                    "         %b3 = OpLabel\n               OpReturn"))
    # -- OpenCL.std operand types (finding 1 and its relatives)
    for nm, insn in [
            ("ext_smax_pointer", "%uint %std s_max %p %p"),
            ("ext_smax_float", "%uint %std s_max %float_1 %float_1"),
            ("ext_fmax_int", "%float %std fmax %uint_1 %uint_1"),
            ("ext_sqrt_uchar", "%float %std sqrt %uchar_1"),
            ("ext_clz_vector_mismatch", "%v4uint %std clz %v2u_1"),
            ("ext_length_pointer", "%float %std length %p"),
            ("ext_cross_v2", "%v2float %std cross %v2f_1 %v2f_1"),
            ("ext_shuffle_mask", "%v4uint %std shuffle %v4u_1 %v2u_1"),
            ("ext_select_sizes", "%uint %std select %uchar_1 %uchar_1 %uint_1"),
            ("ext_vloadn_no_pointer", "%v4uint %std vloadn %uint_1 %uint_1 4"),
            ("ext_frexp_no_pointer", "%float %std frexp %float_1 %uint_1"),
            ("ext_result_pointer", "%ptr_cw_uint %std u_max %uint_1 %uint_1"),
            ("ext_distance_lengths", "%float %std distance %v2f_1 %v4f_1"),
            # spirv-val (SPIRV-Tools 2023.1) itself crashes on these two: the
            # loader must not hand them to it (fuzz finding, session 15)
            ("ext_vstore_half_r_pointer", "%void %std vstore_half_r %p %uint_1 %p RTE"),
            ("ext_vstore_half_pointer", "%void %std vstore_half %p %uint_1 %p"),
    ]:
        text = EXT_TEMPLATE.replace("{INSN}", insn)
        if "vstore_half" in nm:   # valid but for the operand: spirv-val reaches it
            text = text.replace("OpCapability Int64\n", "OpCapability Int64\n               OpCapability Int8\n")
        put(nm + ".spvasm", text)
    # -- elementwise operand shapes (the vec2 differential finding)
    for nm, insn in [
            ("ew_fmul_vec_by_scalar", "OpFMul %v2float %v2f_1 %float_1"),
            ("ew_fadd_int_operand", "OpFAdd %float %uint_1 %float_1"),
            ("ew_iadd_short_vector", "OpIAdd %v4uint %v2u_1 %v4u_1"),
            ("ew_iadd_narrow", "OpIAdd %uint %uchar_1 %uint_1"),
            ("ew_ieq_widths", "OpIEqual %bool %uint_1 %uchar_1"),
            ("ew_select_cond_int", "OpSelect %uint %uint_1 %uint_1 %uint_1"),
            ("ew_select_object", "OpSelect %v2uint %true %v2u_1 %uint_1"),
            ("ew_vts_int_scalar", "OpVectorTimesScalar %v2float %v2f_1 %uint_1"),
            ("ew_convert_count", "OpConvertUToF %v4float %v2u_1"),
            ("ew_not_of_type", "OpNot %uint %uint"),
    ]:
        put(nm + ".spvasm", EW_TEMPLATE.replace("{INSN}", insn))
    put("partial_oob.spvasm", PARTIAL_OOB_KERNEL)
    put("frame_512m.spvasm", frame_kernel(1 << 27))        # a 512 MiB value: past the register limit
    put("frame_64m.spvasm", frame_kernel(1 << 24))         # 64 MiB per work-item: too much at S=128
    put("frame_16m.spvasm", frame_kernel(1 << 22))         # 16 MiB per work-item: runs at S=16
    put("const_1g.spvasm", const_kernel(1 << 28, 1))      # one 1 GiB OpConstantNull
    put("const_300x1m.spvasm", const_kernel(1 << 18, 300))  # 300 MiB in 1 MiB constants
    put("const_100x1m.spvasm", const_kernel(1 << 18, 100))  # 100 MiB: loads and runs
    # -- assembly text
    put("random.spvasm", bytes(rnd.randrange(256) for _ in range(600)))
    put("syntax.spvasm", "; comment\n               OpCapability Kernel\n"
        "               OpMemoryModel Physical64 OpenCL\n          %1 = OpTypeVoid 42 garbage(\n")
    put("escape_seq.spvasm", b"; x\n\x1b[2J\x1b[31m\xff\xfe OpCapability Kernel\n")
    put("long_token.spvasm", "OpCapability " + "K" * 200000 + "\n")
    put("utf8_comment.spvasm", src.replace("; The good kernel", "; \u00e9t\u00e9 \u2014 \xff"
                                           .encode("utf-8", "surrogateescape").decode("utf-8")))
    # -- run files
    head = "add_one.spv\nadd_one\n{g} 1 1\n{l} 1 1\n"
    args = "<size=16 uint range=1:1:4>\n<size=16 uint fill=0 dump>\n<size=4 uint>\n10\n"
    import shutil
    shutil.copy(good, os.path.join(work, "add_one.spv"))
    put("ok.sim", head.format(g=4, l=4) + args)
    put("empty.sim", "")
    put("random.sim", bytes(rnd.randrange(256) for _ in range(500)))
    put("binary_kernel_name.sim", head.replace("add_one\n", "add\x1b[2J\xff\n", 1).format(g=4, l=4) + args)
    put("huge_global.sim", head.format(g="99999999999999999999999", l=4) + args)
    put("wrapped_global.sim", head.format(g=18446744073709551615, l=16) + args)
    put("negative_global.sim", head.format(g=-4, l=4) + args)
    put("deep_header.sim", head.format(g=4, l=4) + "<" * 100000 + "\n")
    put("self_kernel.sim", head.replace("add_one.spv", "self_kernel.sim").format(g=4, l=4) + args)
    put("many_args.sim", head.format(g=4, l=4) + args + "<size=4 uint>\n1\n" * 100000)
    put("local_64g.sim", "loc.spv\nk\n16 1 1\n16 1 1\n<size=64 int fill=0>\n<size=68719476736>\n")
    put("timeout_bad.sim", "#sg: timeout=soon\n" + head.format(g=4, l=4) + args)
    put("timeout_neg.sim", "#sg: timeout=-1\n" + head.format(g=4, l=4) + args)
    put("dev_zero_arg.sim", head.format(g=4, l=4) + "<size=16 uint file=/dev/zero>\n" + args.split("\n", 2)[2])
    put("buffer_past_limit.sim", head.format(g=4, l=4) + "<size=99999999999999 uint fill=0>\n" + args.split("\n", 2)[2])
    shutil.copy(os.path.join(work, "loop.spvasm"), os.path.join(work, "loop2.spvasm"))
    put("timeout_loop.sim", "#sg: timeout=1\nloop2.spvasm\nadd_one\n4 1 1\n4 1 1\n" + args)
    # a __local kernel for the local-memory cases
    put("loc.spvasm", LOCAL_KERNEL)
    subprocess.run(["spirv-as", f["loc.spvasm"], "-o", os.path.join(work, "loc.spv")], check=True)
    f["loc.spv"] = os.path.join(work, "loc.spv")
    put("print_big.spvasm", src)
    # spirv-sgconform check / spirv-sgdb: a run file of the infinite loop, scripts
    put("loop.sim", "loop2.spvasm\nadd_one\n4 1 1\n4 1 1\n" + args)
    put("continue.x", "continue\nquit\n")
    # a mapped .spvasm of exactly two pages, no final newline: nothing reads past it
    pad = 8192 - len(src.encode())
    put("two_pages.spvasm", src + ";" + "x" * (pad - 1))
    put("priv_1g.spvasm", priv_kernel(1 << 28, 1))      # float a[1 << 28]: 1 GiB per work-item
    put("priv_512m.spvasm", priv_kernel(1 << 27, 1))    # 512 MiB per work-item
    put("priv_3x512m.spvasm", priv_kernel(1 << 27, 3))  # three of them: 1.5 GiB
    put("priv_9x512m.spvasm", priv_kernel(1 << 27, 9))  # 4.5 GiB: would wrap 32-bit sums
    put("priv_1m.spvasm", priv_kernel(1 << 18, 1))      # 1 MiB per work-item: runs
    put("priv_1g.sim", "priv_1g.spvasm\nk\n64 1 1\n64 1 1\n<size=256 float fill=0 dump>\n")
    put("priv_1m.sim", "priv_1m.spvasm\nk\n16 1 1\n16 1 1\n<size=64 float fill=0 dump>\n")
    put("escape_cmd.x", b"print \x1b[2J\xff\nquit\n")
    os.makedirs(os.path.join(work, "nodumps"), exist_ok=True)
    put("typo.x", "# a comment, then a blank line\n\ncontniue\ncontinue\nquit\n")
    return f


LOCAL_KERNEL = """               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %p "p"
               OpName %l "l"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
%ptr_wg_uint = OpTypePointer Workgroup %uint
         %fn = OpTypeFunction %void %ptr_cw_uint %ptr_wg_uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr_cw_uint
          %l = OpFunctionParameter %ptr_wg_uint
      %entry = OpLabel
          %x = OpLoad %uint %l
               OpStore %p %x
               OpReturn
               OpFunctionEnd
"""

# A kernel with private arrays (Function-storage OpVariables) of N floats
# each, named a0, a1, ...: as clang -O0 leaves `float a[N];`.
def priv_kernel(n, count):
    vs = "".join("         %%a%d = OpVariable %%ptr_fn_arr Function\n" % i for i in range(count))
    names = "".join("               OpName %%a%d \"a%d\"\n" % (i, i) for i in range(count))
    return """               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
""" + names + """       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %uint_0 = OpConstant %uint 0
     %uint_n = OpConstant %uint """ + str(n) + """
        %arr = OpTypeArray %float %uint_n
 %ptr_fn_arr = OpTypePointer Function %arr
%ptr_fn_float = OpTypePointer Function %float
%ptr_cw_float = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %ptr_cw_float
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr_cw_float
      %entry = OpLabel
""" + vs + """          %e = OpInBoundsPtrAccessChain %ptr_fn_float %a0 %uint_0 %uint_0
          %x = OpLoad %float %e
               OpStore %p %x
               OpReturn
               OpFunctionEnd
"""


RUN = ["--global", "4", "--arg", "range:1:1:4", "--arg", "zero:4", "--arg", "10"]


def cases(f):
    """(name, argv, expected exit, message regex or None, time bound in s)."""
    g = f["good.spv"]
    E = []

    def c(name, argv, rc, pat, bound=20):
        E.append((name, argv, rc, pat, bound))

    # the good module runs: the baseline every mutation departs from
    c("good module runs", [g] + RUN + ["--print", "out"], 0, r"out\[3\] = 14")
    # -- finding 1: OpenCL.std operand types rejected at load, on both backends
    c("finding 1: s_max of pointers (interp)", [f["ext_smax_pointer.spvasm"], "--backend", "interp"], 2,
      r"OpenCL\.std s_max: operand 1 .* must be an integer")
    c("finding 1: s_max of pointers (jit)", [f["ext_smax_pointer.spvasm"], "--backend", "jit"], 2,
      r"OpenCL\.std s_max: operand 1 .* must be an integer")
    for nm, pat in [("ext_smax_float", r"s_max: operand 1 .* integer"),
                    ("ext_fmax_int", r"fmax: operand 1 .* float"),
                    ("ext_sqrt_uchar", r"sqrt: operand 1 .* float"),
                    ("ext_clz_vector_mismatch", r"clz: operand 1 has 2 components, the result 4"),
                    ("ext_length_pointer", r"length: operand 1 .* float"),
                    ("ext_cross_v2", r"cross: .*3- or 4-component"),
                    ("ext_shuffle_mask", r"shuffle: operand 2 has 2 components, the result 4"),
                    ("ext_select_sizes", r"select: operand 1 has 1-byte components"),
                    ("ext_vloadn_no_pointer", r"vloadn: operand 2 .* must be a pointer"),
                    ("ext_frexp_no_pointer", r"frexp: operand 2 .* must be a pointer"),
                    ("ext_result_pointer", r"u_max: the result type must be"),
                    ("ext_distance_lengths", r"distance: the operands differ in length")]:
        c("OpenCL.std wrong types: " + nm[4:], [f[nm + ".spvasm"]], 2, pat)
    # shapes that crash spirv-val: skipped with a warning, then the loader's
    # own check; --strict-validate fails with the reason
    for nm in ("vstore_half_r", "vstore_half"):
        c("spirv-val crash shape: %s of a pointer" % nm, [f["ext_%s_pointer.spvasm" % nm]], 2,
          r"warning: .*spirv-val skipped: OpExtInst OpenCL\.std %s \(%%\d+\): operand 1 \(%%\d+\) is a pointer"
          r"(.|\n)*error: .*OpenCL\.std %s: operand 1 .* must be an integer or float" % (nm, nm))
        c("spirv-val crash shape: %s of a pointer (--strict-validate)" % nm,
          [f["ext_%s_pointer.spvasm" % nm], "--strict-validate"], 2,
          r"error: .*module does not validate: OpExtInst OpenCL\.std %s \(%%\d+\): operand 1 \(%%\d+\) is a "
          r"pointer" % nm)
    # -- elementwise operands of the wrong shape: rejected at load on both
    #    backends (the interpreter read past a scalar, the JIT broadcast it)
    for be in ("interp", "jit"):
        c("elementwise: vec2 OpFMul by a scalar (%s)" % be, [f["ew_fmul_vec_by_scalar.spvasm"], "--backend", be], 2,
          r"OpFMul: operand 2 \(%\d+\) has 1 component, the result 2")
    for nm, pat in [("ew_fadd_int_operand", r"OpFAdd: operand 1 \(%\d+\) is not a float scalar or vector"),
                    ("ew_iadd_short_vector", r"OpIAdd: operand 1 \(%\d+\) has 2 components, the result 4"),
                    ("ew_iadd_narrow", r"OpIAdd: operand 1 \(%\d+\) has 8-bit components, the result 32-bit"),
                    ("ew_ieq_widths", r"OpIEqual: operand 2 \(%\d+\) has 8-bit components, the result 32-bit"),
                    ("ew_select_cond_int", r"OpSelect: the condition %\d+ is not a boolean"),
                    ("ew_select_object", r"OpSelect: object %\d+ is not of the result type"),
                    ("ew_vts_int_scalar", r"OpVectorTimesScalar: operand 2 \(%\d+\) is not a float"),
                    ("ew_convert_count", r"OpConvertUToF: operand 1 \(%\d+\) has 2 components, the result 4"),
                    ("ew_not_of_type", r"OpNot: operand 1 \(%\d+\) is a type, not a value")]:
        c("elementwise: " + nm[3:], [f[nm + ".spvasm"]], 2, pat)
    # -- dominance: a use its definition does not dominate, on both backends
    for be in ("interp", "jit"):
        c("dominance: a use in the merge block (%s)" % be, [f["dom_merge.spvasm"], "--backend", be], 2,
          r"%\d+ is used in block %\d+, which its definition in block %\d+ does not dominate")
        c("dominance: an OpPhi value from the entry (%s)" % be, [f["dom_phi.spvasm"], "--backend", be], 2,
          r"%\d+ is used in block %\d+, which its definition in block %\d+ does not dominate")
    # -- a block label as an operand of an instruction that reads values
    for be in ("interp", "jit"):
        c("label as a value (%s)" % be, [f["label_operand.spvasm"], "--backend", be], 2,
          r"\(OpBitcast\): operand 3: %\d+ is a block label, not a value")
    # -- call arguments: a value of the parameter's type, checked at load
    for be in ("interp", "jit"):
        c("call: a type as an argument (%s)" % be, [f["call_arg_type.spvasm"], "--backend", be], 2,
          r"call to %\d+: argument 3 \(%\d+\) is a type, not a value")
        c("call: a ulong for a uint parameter (%s)" % be, [f["call_arg_mismatch.spvasm"], "--backend", be], 2,
          r"call to %\d+: argument 3 \(%\d+\) is not of the parameter's type")
    # -- loads and stores move the pointee's type, checked at load
    for be in ("interp", "jit"):
        c("store: a ulong through a uint pointer (%s)" % be, [f["store_wider.spvasm"], "--backend", be], 2,
          r"OpStore: the object %\d+ is not of the type %\d+ points to")
        c("load: a ulong through a uint pointer (%s)" % be, [f["load_wider.spvasm"], "--backend", be], 2,
          r"OpLoad: the result type is not the type %\d+ points to")
    # -- constant data: at most 256 MiB, checked before it is allocated
    c("constant data: a 1 GiB OpConstantNull", [f["const_1g.spvasm"], "--global", "1", "--arg", "zero:1"], 2,
      r"constant %\d+ of 1073741824 bytes brings the module's constant data to 10737418\d\d bytes, more than the "
      r"limit of 268435456 bytes \(256 MiB\)", 10)
    c("constant data: 300 constants of 1 MiB", [f["const_300x1m.spvasm"], "--global", "1", "--arg", "zero:1"], 2,
      r"brings the module's constant data to 26843\d+ bytes, more than the limit of 268435456 bytes", 10)
    for be in ("interp", "jit"):
        c("constant data: 100 constants of 1 MiB run (%s)" % be,
          [f["const_100x1m.spvasm"], "--backend", be, "--global", "1", "--arg", "zero:1", "--print", "arg0"], 0,
          r"arg0\[0\] = 0", 60)
    # -- the interpreter's frames (registers), checked before the launch
    for be in ("interp", "jit"):
        c("frames: a 512 MiB value in a register (%s)" % be,
          [f["frame_512m.spvasm"], "--backend", be, "--global", "16", "--arg", "zero:4", "--arg", "zero:4"], 2,
          r"registers of function 'k': 536870\d+ bytes per work-item \(its largest value, x, 536870912 bytes\), "
          r"more than the limit of 268435456 bytes \(256 MiB\)")
    c("frames: 64 MiB registers x 128 lanes", [f["frame_64m.spvasm"], "--global", "128", "--subgroup-size", "128",
                                              "--arg", "zero:4", "--arg", "zero:4"], 2,
      r"registers of the kernel's frames: 128 work-items x 671088\d\d bytes = \d+ bytes, with \d+ bytes of private "
      r"memory more than the limit of 4294967296 bytes .*--max-private-memory")
    c("frames: 16 MiB registers x 16 lanes run (out-of-bounds load)", [f["frame_16m.spvasm"], "--global", "16",
                                                                      "--arg", "zero:4", "--arg", "zero:4"], 1,
      r"read of 16777216 bytes at buffer 'arg0'\+0 \(size 4\)", 60)
    # a vector access partly out of bounds faults as a whole, on both backends
    for be in ("interp", "jit"):
        c("vector load and store partly out of bounds (%s)" % be,
          [f["partial_oob.spvasm"], "--backend", be, "--global", "1", "--arg", "out=zero:3",
           "--arg", "in=range:5:1:3", "--print", "out"], 1,
          r"read of 8 bytes at buffer 'in'\+8 \(size 12\)(.|\n)*write of 8 bytes at buffer 'out'\+8 \(size 12\)"
          r"(.|\n)*out\[0\] = 1\n  out\[1\] = 1\n  out\[2\] = 0\n")
    # -- finding 2: NDRange arithmetic that wraps
    c("finding 2: global 2^64-1, local 16", [g] + RUN[2:] + ["--global", "18446744073709551615", "--local", "16"], 2,
      r"too large \(limit 2\^48 work-groups\)")
    c("finding 2: global 2^32 x 2^32", [g] + RUN[2:] + ["--global", "4294967296,4294967296", "--local", "1,1"], 2,
      r"4294967296 x 4294967296 x 1 work-groups is too large")
    c("NDRange: 2^32 in three dimensions", [g] + RUN[2:] + ["--global", "4294967296,4294967296,4294967296", "--local", "1,1,1"], 2,
      r"too large")
    c("NDRange: offset + size past 2^64", [g] + RUN + ["--offset", "18446744073709551615"], 2,
      r"exceeds the largest work-item id")
    c("NDRange: work-group 2^20 x 2^20", [g] + RUN[2:] + ["--global", "1048576,1048576", "--local", "1048576,1048576"], 2,
      r"work-group of 1048576 x 1048576 x 1 work-items is too large \(limit 2\^24")
    c("NDRange: global 0", [g] + RUN[2:] + ["--global", "0"], 2, r"global")
    c("NDRange: negative global", [g] + RUN[2:] + ["--global", "-4"], 2, r"global")
    c("NDRange: four dimensions", [g] + RUN[2:] + ["--global", "1,2,3,4"], 2, r"global")
    c("NDRange: global past 2^64", [g] + RUN[2:] + ["--global", "99999999999999999999999"], 2, r"global")
    c("subgroup size 129", [g] + RUN + ["--subgroup-size", "129"], 2, r"1\.\.128")
    # -- finding 3: module size and instruction count limits
    c("finding 3: module past --max-module-size", [g, "--max-module-size", "100"] + RUN, 2,
      r"larger than the limit of 100 bytes .*--max-module-size")
    c("finding 3: OpNop module past --max-instructions", [f["nops.spv"], "--max-instructions", "10000"] + RUN, 2,
      r"more than 10000 instructions.*--max-instructions")
    c("finding 3: OpNop module under the limits runs", [f["nops.spv"]] + RUN + ["--print", "out"], 0, r"out\[0\] = 11")
    c("finding 3/7: /dev/zero as a module names the limit", ["/dev/zero"], 2,
      r"larger than the limit of 67108864 bytes.*--max-module-size", 60)
    c("--max-module-size 0", [g, "--max-module-size", "0"], 2, r"max-module-size")
    # spirv-val only up to --max-validate-instructions (its memory: ~170 bytes an instruction)
    c("finding 3: spirv-val skipped past --max-validate-instructions, with a warning",
      [f["nops.spv"], "--max-validate-instructions", "10000"] + RUN + ["--print", "out"], 0,
      r"warning: .*nops\.spv: spirv-val skipped: 200\d\d instructions, more than 10000 .*"
      r"--max-validate-instructions\); the loader's own checks apply(.|\n)*out\[0\] = 11")
    c("spirv-val under the limit: no warning", [f["nops.spv"]] + RUN + ["--print", "out"], 0,
      r"\A(?!(.|\n)*spirv-val skipped)(.|\n)*out\[0\] = 11")
    c("--strict-validate past --max-validate-instructions is an error",
      [f["nops.spv"], "--max-validate-instructions", "10000", "--strict-validate"] + RUN, 2,
      r"more than 10000 to validate with spirv-val, which --strict-validate requires \(raise it with "
      r"--max-validate-instructions\)")
    c("invalid module past --max-validate-instructions: the loader's checks still apply",
      [f["load_of_type.spv"], "--max-validate-instructions", "5"] + RUN, 2,
      r"OpLoad: the pointer operand .* is not a pointer")
    c("--max-validate-instructions 0", [g, "--max-validate-instructions", "0"], 2,
      r"invalid --max-validate-instructions '0'")
    c("--max-instructions abc", [g, "--max-instructions", "abc"], 2, r"max-instructions")
    # -- finding 4: allocations checked before the launch
    c("finding 4: local:64 GiB on the command line", [f["loc.spv"], "--global", "16", "--arg", "zero:16",
                                                      "--arg", "local:68719476736"], 2,
      r"local:68719476736 is more than the limit of 1073741824 bytes \(1 GiB\)")
    c("finding 4: 64 GiB __local in a run file", [f["local_64g.sim"]], 2,
      r"local_64g\.sim:6: 68719476736 bytes of __local memory is more than the limit of 1073741824 bytes")
    c("buffer of 2^64-1 elements", [g, "--global", "4", "--arg", "zero:18446744073709551615",
                                    "--arg", "zero:4", "--arg", "1"], 2, r"arg|argument|element|large|memory")
    c("buffer past the limit in a run file", [f["buffer_past_limit.sim"]], 2, r"buffer_past_limit\.sim:5")
    # -- finding 5: --print streams; a failed write is an error
    c("--print TYPE with a bad vector width", [g] + RUN + ["--print", "out:float99"], 2,
      r"--print out:float99: invalid vector width '99' \(2, 3, 4, 8 or 16\)")
    c("--print TYPE with garbage after the width", [g] + RUN + ["--print", "out:int4x"], 2,
      r"invalid vector width '4x'")
    c("finding 5: --print to a full disk", [g] + RUN + ["--print", "out", "--stdout", "/dev/full"], 2,
      r"cannot print 'out' on standard output: No space left")
    c("finding 5: --print of 1M elements prints them all",
      [g, "--global", "1048576", "--arg", "zero:1048576", "--arg", "zero:1048576", "--arg", "1",
       "--print", "out", "--backend", "jit", "--count-lines"], 0, r"^1048579 lines", 120)
    # -- finding 6: runaway runs
    c("finding 6: default step limit, named with its flag (jit)",
      [f["loop.spvasm"], "--backend", "jit"] + RUN, 1, r"step limit of 134217728 .*", 60)
    c("finding 6: --step-limit names the flag (interp)",
      [f["loop.spvasm"], "--backend", "interp", "--step-limit", "100000"] + RUN, 1,
      r"step limit of 100000 instructions per subgroup reached \(raise it with --step-limit N\)")
    c("finding 6: --timeout stops an infinite loop",
      [f["loop.spvasm"], "--backend", "interp", "--timeout", "1", "--step-limit", "100000000000"] + RUN, 1,
      r"time limit of 1 s reached \(--timeout SECONDS\)", 30)
    c("finding 6: --timeout stops a huge NDRange of short work-groups",
      [f["loc.spv"], "--backend", "interp", "--timeout", "1", "--global", "1000000000", "--arg", "zero:1",
       "--arg", "local:4"], 1, r"time limit of 1 s reached", 30)
    c("finding 6: a step limit below a loop-free kernel's branches still stops it (jit)",
      [f["chain.spvasm"], "--backend", "jit", "--step-limit", "2"] + RUN, 1,
      r"step limit of 2 branches per subgroup reached")
    c("finding 6: a loop-free kernel under a step limit above its branches (jit)",
      [f["chain.spvasm"], "--backend", "jit", "--step-limit", "100"] + RUN + ["--print", "out"], 0, r"out\[3\] = ")
    # the JIT checks the time as work-groups start (its step counter, reset per
    # subgroup, never reaches a check here)
    c("finding 6: --timeout stops a huge NDRange of a kernel without loops (jit)",
      [f["loc.spv"], "--backend", "jit", "--timeout", "1", "--global", "100000000000", "--arg", "zero:1",
       "--arg", "local:4"], 1, r"time limit of 1 s reached", 60)
    c("finding 6: #sg: timeout= in a run file", [f["timeout_loop.sim"], "--backend", "interp",
                                                 "--step-limit", "100000000000"], 1, r"time limit of 1 s", 30)
    c("--timeout 0", [g, "--timeout", "0"] + RUN, 2, r"invalid --timeout '0' \(seconds > 0\)")
    c("--timeout abc", [g, "--timeout", "abc"] + RUN, 2, r"--timeout")
    c("#sg: timeout=soon", [f["timeout_bad.sim"]], 2, r"timeout_bad\.sim:1: invalid timeout 'soon'")
    c("#sg: timeout=-1", [f["timeout_neg.sim"]], 2, r"invalid timeout '-1'")
    c("recursion", [f["recursive.spvasm"], "--step-limit", "100000"] + RUN, None, None, 30)
    # -- finding 7: messages a user can act on
    c("finding 7: random bytes in .spvasm are escaped, file:line:col",
      [f["random.spvasm"]], 2, r"random\.spvasm:1:1: .*\\x")
    c("finding 7: escape sequences in .spvasm", [f["escape_seq.spvasm"]], 2,
      r"escape_seq\.spvasm:2:1: .*\\x1b\[2J\\x1b\[31m\\xff\\xfe")
    c("finding 7: assembler error names file and line", [f["syntax.spvasm"]], 2,
      r"syntax\.spvasm:4:\d+: ")
    c("finding 7: binary kernel name in a run file", [f["binary_kernel_name.sim"]], 2, r"no kernel named 'add\\x1b\[2J")
    c("finding 7: binary --arg escaped", [g, "--global", "4", "--arg", "\x1b[31m\udcff"], 2, r"\\x1b\[31m\\xff")
    c("finding 7: binary option escaped", [g, "--\x1b[2J"], 2, r"unknown option '--\\x1b\[2J'")
    c("very long token", [f["long_token.spvasm"]], 2, r"long_token\.spvasm:1:")
    c("a mapped .spvasm of exactly two pages", [f["two_pages.spvasm"]] + RUN + ["--print", "out"], 0,
      r"out\[3\] = 14")
    c("non-UTF-8 in a comment still assembles", [f["utf8_comment.spvasm"]] + RUN + ["--print", "out"], 0,
      r"out\[0\] = 11")
    # -- malformed binaries
    for nm, rc, pat in [
            ("empty.spv", 2, r"empty"), ("three_bytes.spv", 2, r"only 3 bytes"),
            ("header_only.spv", 2, r"header_only\.spv"), ("half_header.spv", 2, r"half_header\.spv"),
            ("truncated_mid.spv", 2, r"truncated_mid\.spv"), ("not_aligned.spv", 2, r"not_aligned\.spv"),
            ("bad_magic.spv", 2, r"bad magic number 0xdeadbeef"),
            ("bound_zero.spv", 2, r"bound"), ("bound_huge.spv", 2, r"id bound 4294967295"),
            ("bound_small.spv", 2, r"bound_small\.spv"), ("count_zero.spv", 2, r"count_zero\.spv"),
            ("count_past_end.spv", 2, r"count_past_end\.spv"), ("id_past_bound.spv", 2, r"id_past_bound\.spv"),
            ("load_of_type.spv", 2, r"OpLoad: the pointer operand .* is not a pointer"), ("iadd_pointer_type.spv", 2, r"iadd_pointer_type\.spv"),
            ("random_bytes.spv", 2, r"not a SPIR-V module"),
            ("random_after_magic.spv", 2, r"random_after_magic\.spv"),
            ("all_ones.spv", 2, r"all_ones\.spv"), ("int_width_zero.spv", 3, r"OpTypeInt of width 0 is not supported"),
            ("int_width_huge.spv", 3, r"width 4294967295 is not supported"),
            ("vector_huge.spv", 3, r"vector of 4294967295 components is not supported"),
            ("pointer_cycle.spv", 2, r"pointer_cycle\.spv"), ("fntype_cycle.spv", 2, r"fntype_cycle\.spv"),
            ("extinst_self_set.spv", 2, r"extinst_self_set\.spv"),
            ("extinst_missing_operand.spv", 2, r"extinst_missing_operand\.spv"),
            ("entry_name_binary.spv", 0, r"'13\[\\x1b\\xfc"),
            ("name_no_nul.spv", 2, r"name_no_nul\.spv")]:
        c("malformed binary: " + nm, [f[nm]] + RUN, rc, pat)
    c("big-endian module runs", [f["big_endian.spv"]] + RUN + ["--print", "out"], 0, r"out\[3\] = 14")
    c("unknown OpenCL.std instruction", [f["extinst_unknown.spv"]] + RUN, None, r"9999")
    c("2000 nested array types", [f["deep_arrays.spv"]] + RUN + ["--print", "out"], 0, r"out\[3\] = 14")
    c("wrong SPIR-V version", [f["version_bad.spv"]] + RUN, None, None)
    # -- run files
    c("good run file runs", [f["ok.sim"]], 0, r"\[3\] = 14")
    c("empty run file", [f["empty.sim"]], 2, r"empty\.sim")
    c("random run file", [f["random.sim"]], 2, r"random\.sim")
    c("global past 2^64 in a run file", [f["huge_global.sim"]], 2, r"huge_global\.sim:3")
    c("wrapped NDRange in a run file", [f["wrapped_global.sim"]], 2, r"too large")
    c("negative global in a run file", [f["negative_global.sim"]], 2, r"negative_global\.sim:3")
    c("100000 '<' in a header", [f["deep_header.sim"]], 2, r"deep_header\.sim:5")
    c("run file naming itself as the kernel file", [f["self_kernel.sim"]], 2, r"self_kernel\.sim")
    c("100000 extra arguments", [f["many_args.sim"]], 2, r"many_args\.sim")
    c("/dev/zero as an argument file", [f["dev_zero_arg.sim"]], 2, r"dev_zero_arg\.sim:5.*(size|bytes)", 60)
    c("directory as input", [os.path.dirname(g)], 2, r"directory")
    # -- both backends stop a runaway loop with the same message naming the flag
    for be in ("interp", "jit"):
        c("step limit message names --step-limit (%s)" % be,
          [f["loop.spvasm"], "--backend", be, "--step-limit", "100000"] + RUN, 1,
          r"^fault: step limit: step limit of 100000 (instructions|branches) per subgroup reached "
          r"\(.*raise it with --step-limit N\) in kernel 'add_one'")
        c("time limit message names --timeout (%s)" % be,
          [f["loop.spvasm"], "--backend", be, "--timeout", "1", "--step-limit", "1000000000000000000"] + RUN, 1,
          r"^fault: time limit: time limit of 1 s reached \(--timeout SECONDS\) in kernel 'add_one'", 30)
    c("JIT step limit says it counts branches", [f["loop.spvasm"], "--backend", "jit", "--step-limit", "65536"] + RUN,
      1, r"step limit of 65536 branches per subgroup reached \(the JIT counts branches; raise it with --step-limit N\)")
    # -- spirv-sgconform check/compare: spirv-sgrun's limit flags and input hygiene
    C = [SGCONFORM, "check"]
    c("sgconform: --step-limit stops a runaway loop", C + [f["loop.sim"], "--step-limit", "100000", "--sizes", "4"], 1,
      r"step limit of 100000 instructions per subgroup reached \(raise it with --step-limit N\)", 60)
    c("sgconform: --timeout stops a runaway loop", C + [f["loop.sim"], "--timeout", "1", "--step-limit", "100000000000",
                                                       "--sizes", "4"], 1,
      r"time limit of 1 s reached \(--timeout SECONDS\)", 60)
    c("sgconform: #sg: timeout= in a run file", C + [f["timeout_loop.sim"], "--step-limit", "100000000000",
                                                    "--sizes", "4"], 1, r"time limit of 1 s reached", 60)
    c("sgconform: --max-module-size", C + [g, "--max-module-size", "100"], 2,
      r"good\.spv: \d+ bytes, larger than the limit of 100 bytes .*--max-module-size")
    c("sgconform: --max-validate-instructions", C + [f["nops.spv"], "--max-validate-instructions", "10000"], 0,
      r"spirv-val skipped: 200\d\d instructions.*--max-validate-instructions")
    c("sgconform: --max-instructions", C + [f["nops.spv"], "--max-instructions", "10000"], 2,
      r"more than 10000 instructions.*--max-instructions")
    c("sgconform: /dev/zero names the limit and its flag", C + ["/dev/zero"], 2,
      r"larger than the limit of 67108864 bytes.*--max-module-size", 60)
    c("sgconform: --step-limit 0", C + [g, "--step-limit", "0"], 2, r"invalid --step-limit '0'")
    c("sgconform: --timeout abc", C + [g, "--timeout", "abc"], 2, r"invalid --timeout 'abc' \(seconds > 0\)")
    c("sgconform: --max-module-size needs a value", C + [g, "--max-module-size"], 2, r"--max-module-size needs a value")
    c("sgconform: compare --subgroup-size abc", [SGCONFORM, "compare", f["ok.sim"], "--device-output", ".",
                                                "--subgroup-size", "abc"], 2, r"invalid --subgroup-size 'abc'")
    c("sgconform compare: a missing --device-output folder", [SGCONFORM, "compare", f["ok.sim"], "--device-output",
                                                             f["ok.sim"] + ".none", "--subgroup-size", "4"], 2,
      r"--device-output \S+ok\.sim\.none: No such file or directory")
    c("sgconform compare: --device-output a file", [SGCONFORM, "compare", f["ok.sim"], "--device-output", f["ok.sim"],
                                                   "--subgroup-size", "4"], 2, r"--device-output \S+ok\.sim: not a directory")
    c("sgconform compare: a folder without dumps", [SGCONFORM, "compare", f["ok.sim"], "--device-output",
                                                   os.path.dirname(f["ok.sim"]) + "/nodumps", "--subgroup-size", "4"], 2,
      r"no dumps found in \S+nodumps")
    c("sgconform: random bytes in .spvasm escaped, file:line:col", C + [f["random.spvasm"]], 2,
      r"random\.spvasm:1:1: .*\\x")
    c("sgconform: escape sequences in .spvasm", C + [f["escape_seq.spvasm"]], 2,
      r"escape_seq\.spvasm:2:1: .*\\x1b\[2J\\x1b\[31m\\xff\\xfe")
    c("sgconform: assembler error names file and line", C + [f["syntax.spvasm"]], 2, r"syntax\.spvasm:4:\d+: ")
    c("sgconform: binary kernel name in a run file", C + [f["binary_kernel_name.sim"]], 2, r"no kernel named 'add\\x1b\[2J")
    c("sgconform: binary option escaped", C + ["--\x1b[2J"], 2, r"unknown check option '--\\x1b\[2J'")
    c("sgconform: binary mode escaped", [SGCONFORM, "\x1b[2J\udcff"], 2, r"unknown mode '\\x1b\[2J\\xff'")
    c("sgconform: truncated module names the file", C + [f["truncated_mid.spv"]], 2, r"truncated_mid\.spv")
    c("sgconform: bad magic", C + [f["bad_magic.spv"]], 2, r"bad magic number 0xdeadbeef")
    c("sgconform: wrapped NDRange in a run file", C + [f["wrapped_global.sim"]], 2, r"too large")
    c("sgconform: 64 GiB __local in a run file", C + [f["local_64g.sim"]], 2,
      r"local_64g\.sim:6: 68719476736 bytes of __local memory is more than the limit")
    # -- private memory checked before the launch, on both backends
    for be in ("interp", "jit"):
        P = ["--backend", be, "--arg", "zero:64"]
        c("private float a[1<<28] per work-item (%s)" % be, [f["priv_1g.spvasm"], "--global", "64"] + P, 2,
          r"private memory of a work-group: 64 work-items x 1073741824 bytes = 68719476736 bytes, more than the "
          r"limit of 4294967296 bytes \(4 GiB\)")
        c("private 512 MiB x 64 work-items (%s)" % be, [f["priv_512m.spvasm"], "--global", "64", "--local", "64"] + P, 2,
          r"private memory of a work-group: 64 work-items x 53687\d+ bytes = \d+ bytes, more than the limit of "
          r"4294967296 bytes \(4 GiB\)")
        c("private 512 MiB x 16 lanes of one work-item (%s)" % be,
          [f["priv_512m.spvasm"], "--global", "1", "--local", "1", "--subgroup-size", "16"] + P, 2,
          r"16 work-items x 53687\d+ bytes")
        c("three private arrays of 512 MiB (%s)" % be, [f["priv_3x512m.spvasm"], "--global", "1"] + P, 2,
          r"variable 'a2' \(536870912 bytes\) brings function 'k' to 1610612736 bytes")
        c("nine private arrays of 512 MiB: no 32-bit wrap (%s)" % be, [f["priv_9x512m.spvasm"], "--global", "1"] + P, 2,
          r"variable 'a2' .* to 1610612736 bytes, more than the limit of 1073741824 bytes")
        c("private 1 MiB x 16 runs (%s)" % be, [f["priv_1m.spvasm"], "--global", "16", "--local", "16", "--backend", be,
                                               "--arg", "zero:16"], 0, None, 60)
    for z in ("abc", "0", "129", ",", "4,,8", "-1", "99999999999999999999", "4,8x"):
        c("sgconform check: --sizes %s" % z, C + [f["ok.sim"], "--sizes", z], 2,
          r"invalid --sizes '%s' \(up to 32 subgroup sizes 1\.\.128, comma-separated\)" % re.escape(z))
    c("sgconform check: 33 sizes", C + [f["ok.sim"], "--sizes", ",".join(["4"] * 33)], 2, r"invalid --sizes")
    c("sgconform check: --sizes 4,8 runs", C + [f["ok.sim"], "--sizes", "4,8"], 0, r"subgroup sizes 4 8\n")
    c("sgconform check: a limit stop has one 'fault:' prefix", C + [f["loop.sim"], "--step-limit", "1000", "--sizes", "4"],
      1, r"^S=4: fault: step limit: step limit of 1000 instructions")
    # -- spirv-sgconform suite: the same limit flags, and a selection of nothing is an error
    SU = [SGCONFORM, "suite", "--op", "reduce_add", "--type", "int", "--size", "16", "--backend", "interp",
          "--no-progress", "--max-failures", "1"]
    c("sgconform suite: --step-limit reaches the launches and the rerun line", SU + ["--step-limit", "5"], 1,
      r"step limit of 5 instructions(.|\n)*rerun: \S+ suite --case \S+ --step-limit 5\n(.|\n)*0 passed, [1-9]\d* failed", 60)
    c("sgconform suite: --max-module-size reaches the loads", SU + ["--max-module-size", "100"], 1,
      r"larger than the limit of 100 bytes \(raise it with --max-module-size\)", 60)
    c("sgconform suite: --timeout abc", SU + ["--timeout", "abc"], 2, r"invalid --timeout 'abc' \(seconds > 0\)")
    c("sgconform suite: --step-limit 0", SU + ["--step-limit", "0"], 2, r"invalid --step-limit '0'")
    c("sgconform suite: --max-failures abc", SU + ["--max-failures", "abc"], 2,
      r"--max-failures wants a number from 0 to 4294967295, got 'abc'")
    c("sgconform suite: --flakes a directory", SU + ["--flakes", os.path.dirname(f["ok.sim"])], 2,
      r"cannot read the flakes file \S+: Is a directory")
    c("sgconform suite: --baseline a missing file", SU + ["--baseline", f["ok.sim"] + ".none"], 2,
      r"cannot read the baseline file \S+: No such file or directory")
    c("sgconform suite: a misspelt --op selects nothing: an error", [SGCONFORM, "suite", "--op", "reduce_ad"], 2,
      r"no case matches the selection")
    c("sgconform suite: a size the reduced set lacks", [SGCONFORM, "suite", "--size", "9"], 2,
      r"no case matches the selection .*--full adds")
    # --max-private-memory: the work-group limit, named in the message, in every tool
    for be in ("interp", "jit"):
        c("--max-private-memory lowers the limit (%s)" % be,
          [f["priv_1m.spvasm"], "--global", "16", "--local", "16", "--backend", be, "--arg", "zero:16",
           "--max-private-memory", "8000000"], 2,
          r"private memory of a work-group: 16 work-items x 1048576 bytes = 16777216 bytes, more than the limit of "
          r"8000000 bytes for the work-items run at once \(--max-private-memory BYTES raises it")
        c("--max-private-memory with room for 16 x 1 MiB and the frames runs (%s)" % be,
          [f["priv_1m.spvasm"], "--global", "16", "--local", "16", "--backend", be, "--arg", "zero:16",
           "--max-private-memory", "17000000"], 0, None, 60)
    c("--max-private-memory 0", [g, "--max-private-memory", "0"] + RUN, 2, r"invalid --max-private-memory '0' \(bytes > 0\)")
    c("--max-private-memory -1", [g, "--max-private-memory", "-1"] + RUN, 2, r"invalid --max-private-memory '-1'")
    c("default limit names --max-private-memory", [f["priv_512m.spvasm"], "--global", "64", "--local", "64",
                                                  "--arg", "zero:64"], 2,
      r"4294967296 bytes \(4 GiB\) for the work-items run at once \(--max-private-memory BYTES raises it")
    c("sgconform check: --max-private-memory", C + [f["priv_1m.sim"], "--sizes", "16", "--max-private-memory", "8000000"],
      2, r"cannot be launched at any subgroup size: private memory of a work-group: .* more than the limit of 8000000 bytes")
    c("sgconform: --max-private-memory abc", C + [g, "--max-private-memory", "abc"], 2,
      r"invalid --max-private-memory 'abc' \(bytes > 0\)")
    c("sgdb: --max-private-memory", [SGDB, "--batch", f["priv_1m.spvasm"], "--global", "16", "--local", "16",
                                     "--arg", "zero:16", "--max-private-memory", "8000000"], 2,
      r"more than the limit of 8000000 bytes for the work-items run at once")
    c("sgconform: private float a[1<<28]", C + [f["priv_1g.sim"], "--sizes", "16"], 2,
      r"priv_1g\.sim: the kernel cannot be launched at any subgroup size: private memory of a work-group")
    # -- spirv-sgdb: the same flags; its session reports a limit as a fault stop
    D = [SGDB, "--batch", "-x", f["continue.x"]]
    c("sgdb: --step-limit stops a runaway loop and names the flag",
      D + [f["loop.spvasm"], "--step-limit", "100000"] + RUN, 1,
      r"step limit of 100000 instructions per subgroup reached \(raise it with --step-limit N\)[^\n]*\n"
      r"(.*\n)?Stopped on the diagnostic above", 60)
    c("sgdb: --timeout stops a runaway loop (--batch)",
      D + [f["loop.spvasm"], "--timeout", "1", "--step-limit", "100000000000"] + RUN, 1,
      r"time limit of 1 s reached \(--timeout SECONDS\)", 60)
    c("sgdb: --timeout without --batch", [SGDB, f["loop.spvasm"], "--timeout", "1"] + RUN, 2, r"--timeout needs --batch")
    c("sgdb: --timeout 0", [SGDB, "--batch", f["loop.spvasm"], "--timeout", "0"] + RUN, 2,
      r"invalid --timeout '0' \(seconds > 0\)")
    c("sgdb: --max-module-size", [SGDB, g, "--max-module-size", "100"] + RUN, 2,
      r"larger than the limit of 100 bytes .*--max-module-size")
    c("sgdb: --max-validate-instructions", [SGDB, "--batch", f["nops.spv"], "--max-validate-instructions", "10000"]
      + RUN, 0, r"spirv-val skipped: 200\d\d instructions.*--max-validate-instructions")
    c("sgdb: --max-instructions", [SGDB, f["nops.spv"], "--max-instructions", "10000"] + RUN, 2,
      r"more than 10000 instructions.*--max-instructions")
    c("sgdb: /dev/zero names the limit and its flag", [SGDB, "/dev/zero"], 2,
      r"larger than the limit of 67108864 bytes.*--max-module-size", 60)
    c("sgdb: random bytes in .spvasm escaped, file:line:col", [SGDB, f["random.spvasm"]], 2,
      r"random\.spvasm:1:1: .*\\x")
    c("sgdb: assembler error names file and line", [SGDB, f["syntax.spvasm"]], 2, r"syntax\.spvasm:4:\d+: ")
    c("sgdb: binary kernel name in a run file", [SGDB, f["binary_kernel_name.sim"]], 2, r"no kernel named 'add\\x1b\[2J")
    c("sgdb: binary option escaped", [SGDB, "--\x1b[2J"], 2, r"unknown option '--\\x1b\[2J'")
    c("sgdb: binary --arg escaped", [SGDB, g, "--global", "4", "--arg", "\x1b[31m\udcff"], 2, r"\\x1b\[31m\\xff")
    c("sgdb: control bytes in a script command are escaped and refused",
      [SGDB, "--batch", "-x", f["escape_cmd.x"], g] + RUN, 2,
      r"\(sgdb\) print \\x1b\[2J\\xff\n\S*escape_cmd\.x:1: error: the command contains the control byte \\x1b at column 7")
    # --batch exit status: 0, 1 after a stop on a diagnostic, 2 after a command error (SCRIPT:LINE)
    c("sgdb --batch: a clean run exits 0", [SGDB, "--batch", "-x", f["continue.x"], g] + RUN, 0,
      r"\[kernel finished: 0 diagnostics\]")
    c("sgdb --batch: a fault stop exits 1", [SGDB, "--batch", "-x", f["continue.x"], f["partial_oob.spvasm"],
                                            "--global", "1", "--arg", "zero:3", "--arg", "zero:3"], 1,
      r"Stopped on the diagnostic above")
    c("sgdb --batch: a script error names SCRIPT:LINE and exits 2",
      [SGDB, "--batch", "-x", f["typo.x"], g] + RUN, 2,
      r"^\(sgdb\) contniue\n\S*typo\.x:3: error: unknown command 'contniue'")
    c("sgdb --batch: an error after a fault stop still exits 2",
      [SGDB, "--batch", "-x", f["typo.x"], f["partial_oob.spvasm"], "--global", "1", "--arg", "zero:3",
       "--arg", "zero:3"], 2, r"typo\.x:3: error: unknown command")
    c("sgdb: a script that does not exist", [SGDB, "--batch", "-x", f["continue.x"] + ".none", g] + RUN, 2,
      r"cannot read script .*continue\.x\.none.*No such file")
    c("sgdb: wrapped NDRange", [SGDB, g] + RUN[2:] + ["--global", "18446744073709551615", "--local", "16"], 2,
      r"too large \(limit 2\^48 work-groups\)")
    c("sgdb: local:64 GiB", [SGDB, f["loc.spv"], "--global", "16", "--arg", "zero:16", "--arg", "local:68719476736"], 2,
      r"local:68719476736 is more than the limit of 1073741824 bytes")
    return E


BAD = [r"Traceback \(most recent", r"Segmentation fault", r"AddressSanitizer", r"LeakSanitizer",
       r"runtime error:", r"core dumped", r"Assertion .* failed", r"Aborted"]


def run_case(tools, argv, bound):
    """rc, stdout, stderr, seconds; --stdout FILE and --count-lines are ours."""
    stdout_path, count = None, False
    if "--stdout" in argv:
        k = argv.index("--stdout")
        stdout_path = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    if "--count-lines" in argv:
        argv = [a for a in argv if a != "--count-lines"]
        count = True
    tool = tools.get(argv[0]) if argv and isinstance(argv[0], str) and argv[0].startswith("@") else None
    if tool is not None:
        argv = argv[1:]
    cmd = [tool or tools[None]] + [os.fsencode(a) if isinstance(a, str) else a for a in argv]
    env = dict(os.environ, SPIRV_SG_NO_PROGRESS="1")
    t0 = time.time()
    out_f = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    try:
        p = subprocess.run(cmd, stdout=out_f, stderr=subprocess.PIPE, timeout=bound * SLOW, env=env)
    finally:
        if stdout_path:
            out_f.close()
    dt = time.time() - t0
    out = p.stdout or b""
    if count:
        out = b"%d lines\n" % out.count(b"\n")
    return p.returncode, out.decode(errors="replace"), p.stderr.decode(errors="replace"), p.stderr, dt


def progress_check(sgrun, g):
    """On a terminal, a long run shows 'work-group N of M' on stderr."""
    mfd, sfd = pty.openpty()
    p = subprocess.Popen([sgrun, g, "--backend", "interp", "--timeout", "4", "--global", "1000000000",
                          "--arg", "zero:1", "--arg", "local:4"],
                         stdout=subprocess.DEVNULL, stderr=sfd, stdin=subprocess.DEVNULL)
    os.close(sfd)
    data = b""
    t0 = time.time()
    while time.time() - t0 < 30 * SLOW:
        r, _, _ = select.select([mfd], [], [], 0.5)
        if r:
            try:
                chunk = os.read(mfd, 4096)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        elif p.poll() is not None:
            break
    p.wait()
    os.close(mfd)
    text = data.decode(errors="replace")
    ok = p.returncode == 1 and re.search(r"work-group \d+ of 3906250 \([\d.]+%\), \d+/s, about .* left", text)
    return bool(ok), text


def peak_rss_kb(cmd):
    """Peak resident memory of cmd (KiB): ru_maxrss of a child of a fresh
    python, so that no earlier child's peak counts."""
    code = ("import resource, subprocess, sys\n"
            "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
            "sys.stderr.write(p.stderr.decode(errors='replace'))\n")
    p = subprocess.run([sys.executable, "-c", code] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120 * SLOW, env=dict(os.environ, SPIRV_SG_NO_PROGRESS="1"))
    rc, kb = p.stdout.split()
    return int(rc), int(kb), p.stderr.decode(errors="replace")


def memory_check(sgrun, work, good):
    """Finding 3: loading a module of 4 Mi OpNop (16 MiB, spirv-val skipped
    past its default limit of 1 Mi instructions) stays within 10x the
    module over the tool's own baseline (the good module's peak).  Skipped
    under the sanitizers, whose shadow memory changes the figures."""
    ws = words(open(good, "rb").read())
    i, n = first(ws, 56)
    path = os.path.join(work, "nops_16m.spv")
    n_nops = 4 << 20
    with open(path, "wb") as fh:
        fh.write(pack(ws[:i - 1]))
        fh.write(struct.pack("<I", 0x00010000) * n_nops)
        fh.write(pack(ws[i - 1:]))
    size = os.path.getsize(path)
    try:
        run = ["--global", "4", "--arg", "range:1:1:4", "--arg", "zero:4", "--arg", "10", "--backend", "interp"]
        rc0, base, _ = peak_rss_kb([sgrun, good] + run)
        rc, peak, err = peak_rss_kb([sgrun, path, "--max-instructions", str(n_nops + 100)] + run)
    finally:
        os.unlink(path)
    bound = base + 10 * size // 1024
    ok = rc0 == 0 and rc == 0 and peak <= bound and "spirv-val skipped" in err
    return ok, "peak %d KiB for a %d-byte module (baseline %d KiB, bound %d KiB), exit %d; %s" % (
        peak, size, base, bound, rc, err.strip()[:200])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgrun", default=os.path.join(TOP, "build", "src", "spirv-sgrun"))
    ap.add_argument("--sgconform", default=None)
    ap.add_argument("--sgdb", default=None)
    ap.add_argument("--work", default=None)
    ap.add_argument("-k", default=None, help="only cases whose name matches")
    ap.add_argument("-v", "--verbose", action="store_true")
    o = ap.parse_args()
    o.work = o.work or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(o.sgrun))),
                                    "tests", "hostile-work")
    try:
        f = make_inputs(o.work)
    except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
        print("FAIL setup: %s" % e)
        print("0 passed, 1 failed")
        return 1
    bindir = os.path.dirname(os.path.dirname(os.path.abspath(o.sgrun)))
    tools = {None: o.sgrun,
             SGCONFORM: o.sgconform or os.path.join(bindir, "conformance", "spirv-sgconform"),
             SGDB: o.sgdb or os.path.join(bindir, "src", "spirv-sgdb")}
    passed = failed = 0
    for name, argv, want, pat, bound in cases(f):
        if o.k and not re.search(o.k, name):
            continue
        errs = []
        try:
            rc, out, err, raw_err, dt = run_case(tools, argv, bound)
        except subprocess.TimeoutExpired:
            rc, out, err, raw_err, dt = None, "", "", b"", bound
            errs.append("ran past its bound of %g s" % (bound * SLOW))
        if rc is not None and rc < 0:
            errs.append("killed by signal %d" % -rc)
        elif rc is not None and want is not None and rc != want:
            errs.append("exit %d, expected %d" % (rc, want))
        elif rc is not None and want is None and rc not in (0, 1, 2, 3):
            errs.append("exit %d, expected 0..3" % rc)
        for b in BAD:
            if re.search(b, err + out):
                errs.append("output contains %r" % b)
        if re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", raw_err.replace(b"\r\x1b[K", b"")):
            errs.append("a raw control byte on stderr")
        if argv[0].startswith("@") and re.search(r"[\x00-\x08\x0b-\x1f\x7f]", out):
            errs.append("a raw control byte on stdout")
        msg_lines = [l for l in err.splitlines() if l.strip() and "warning" not in l.lower()]
        if rc == 2 and len(msg_lines) != 1:
            errs.append("%d error lines, expected one" % len(msg_lines))
        if pat and rc is not None and not re.search(pat, err + out, re.M):
            errs.append("message does not match /%s/" % pat)
        if errs:
            failed += 1
            print("FAIL %s (%.1f s)" % (name, dt))
            shown = argv[1:] if argv[0].startswith("@") else argv
            print("  $ %s %s" % (argv[0][1:] if argv[0].startswith("@") else "spirv-sgrun",
                                 " ".join(repr(a) if re.search(r"[^\w./:,=-]", a) else a for a in shown)))
            for e in errs:
                print("  " + e)
            for l in (err or out).splitlines()[:4]:
                print("  | " + l[:300])
        else:
            passed += 1
            print("PASS %s (%.1f s)%s" % (name, dt, ("  -> " + msg_lines[0][:120]) if o.verbose and msg_lines else ""))
    if not o.k or re.search(o.k, "progress"):
        ok, text = progress_check(o.sgrun, f["loc.spv"])
        if ok:
            passed += 1
            print("PASS finding 6: progress line on a terminal")
        else:
            failed += 1
            print("FAIL finding 6: progress line on a terminal")
            print("  | " + text[-300:].replace("\r", "\\r"))
    if (not o.k or re.search(o.k, "memory")) and SLOW == 1:
        ok, text = memory_check(o.sgrun, o.work, f["good.spv"])
        passed, failed = passed + ok, failed + (not ok)
        print("%s finding 3: loading memory within 10x of the module (%s)" % ("PASS" if ok else "FAIL", text))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
