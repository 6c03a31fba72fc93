IN = [5, -42, 0, -3]
# Expected text written by hand from the C printf rules (not generated).
printf = ("hello world from spirv-sg\n"
          " 3.14|1.234500e+03|0.0001|%|Z\n"
          "v=-42 u=4294967254 x=ffffffd6\n"
          "vec 1.000000,-2.500000,0.125000,1000.000000|-3,7\n"
          "-3000000000 18446744073709551615 007 end\n")
global_size = (4,); local_size = (4,)
args = [In("int", IN)]
