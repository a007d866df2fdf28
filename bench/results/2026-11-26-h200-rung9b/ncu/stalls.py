import csv, sys, collections
for f in sys.argv[1:]:
    rows = list(csv.reader(open(f)))
    head = rows[1]; data = rows[2:]
    iS = head.index("Warp Stall Sampling (All Samples)"); src = head.index("Source"); ie = head.index("Instructions Executed")
    stalls = [i for i, h in enumerate(head) if h.startswith("stall_") and "Not Issued" not in h]
    tot = 0; byop = collections.Counter(); bystall = collections.Counter(); inst = collections.Counter(); nInst=0
    byop_stall = collections.defaultdict(collections.Counter)
    for r in data:
        if len(r) <= iS: continue
        try: s = float(r[iS].replace(",", "") or 0)
        except: continue
        op = r[src].split()[0] if r[src].split() else "?"
        if op.startswith("@"): op = r[src].split()[1]
        op = op.split(".")[0]
        tot += s; byop[op] += s
        n = float(r[ie].replace(",", "") or 0); inst[op] += n; nInst += n
        for i in stalls:
            v = float(r[i].replace(",", "") or 0); bystall[head[i]] += v; byop_stall[op][head[i]] += v
    print("==", f, "samples", tot, "warp-instructions", nInst)
    print("  by stall:", ", ".join(f"{k[6:]} {100*v/tot:.1f}%" for k, v in bystall.most_common(8)))
    print("  samples by opcode:", ", ".join(f"{k} {100*v/tot:.1f}%" for k, v in byop.most_common(14)))
    print("  instructions by opcode:", ", ".join(f"{k} {100*v/nInst:.1f}%" for k, v in inst.most_common(14)))
    for op in [o for o, _ in byop.most_common(6)]:
        print("   ", op, ", ".join(f"{k[6:]} {100*v/tot:.1f}%" for k, v in byop_stall[op].most_common(4)))
