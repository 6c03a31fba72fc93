# Unsupported instructions in reachable code: exit 3, the error names the
# first one (OpSampledImage, which only feeds OpImageSampleExplicitLod).
global_size = (4,); local_size = (4,)
exit = 3
error = ["OpSampledImage is not supported", "OpImageSampleExplicitLod is not supported"]
args = [Image(2, 2, "RGBA", "UNORM_INT8", "uchar", list(range(16))),
        Sampler("normalized address=clamp filter=nearest"), Out("float", 16)]
