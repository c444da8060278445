import csv,sys,collections
f=sys.argv[1]; ref=sys.argv[2] if len(sys.argv)>2 else None
runs=collections.defaultdict(dict); arch={}
for fn in ([ref] if ref else [])+[f]:
  with open(fn) as fh:
    for row in csv.DictReader(fh):
        key=(fn,row['run'])
        arch[key]=row.get('switch.arch','')+':'+fn
        if not row['fct_us']: continue
        runs[key][row['flow']]=(float(row['start_us']),float(row['fct_us']),int(row['size_bytes']),int(row['timeouts']))
keys=list(runs); base=runs[keys[0]]
edges=[0,4096,12288,49152,200000,1e6,1e12]
print('reference',arch[keys[0]], 'bins', edges)
for k in keys[1:]:
    s=[0.0]*6; sb=[0.0]*6; n=[0]*6; fr=[0.0]*6; frb=[0.0]*6
    for fl,(st,fct,sz,to) in runs[k].items():
        if fl not in base or st<500: continue
        b=max(i for i in range(6) if sz>edges[i])
        s[b]+=sz/fct; sb[b]+=sz/base[fl][1]; n[b]+=1; fr[b]+=fct; frb[b]+=base[fl][1]
    tot=100*sum(s)/sum(sb)
    print(arch[k], f'all {tot:.1f}%', ' '.join(f"{100*s[b]/sb[b]:.1f}%(n={n[b]},fct {fr[b]/n[b]:.1f}/{frb[b]/n[b]:.1f}us)" for b in range(6) if n[b]))
