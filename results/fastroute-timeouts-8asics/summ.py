import json,sys
for f in sys.argv[1:]:
    for r in json.load(open(f))['runs']:
        u=r.get('inter_asic_util') or []
        print(f"{f:12s} {r['arch']:14s} to={r['timeouts']:7d} rtx={r['retransmits']:7d} drops={r['drops']:7d} iad={r['inter_asic_drops']:7d} dup={r['duplicates']:7d} done={r['flows_completed']}/{r['flows_total']} thrp={r['mean_throughput_gbps']:.3f} p99={r['fct_p99_us']:.0f} util_ia={sum(u)/len(u) if u else 0:.3f} maxu={max(u) if u else 0:.2f} recf={r['reconfigurations']} moved={r['ports_moved']} dark={r['dark_us']:.0f}")
