"""FCT CDF of the default scenario (Ofan Fig. 1), one curve per load balancer, as a PNG."""
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

import fabsim  # noqa: E402

reports, flows = fabsim.run(flows=True)  # 7 runs (one per switch.lb), 432 flows each
for lb, f in flows.groupby("switch.lb", sort=False):
    fct = f["fct_us"].sort_values()
    plt.step(fct, [(i + 1) / len(fct) for i in range(len(fct))], where="post", label=lb)
plt.xlabel("flow completion time (µs)")
plt.ylabel("CDF")
plt.legend()
out = sys.argv[1] if len(sys.argv) > 1 else "fct_cdf.png"
plt.savefig(out, dpi=120)
print(f"wrote {os.path.abspath(out)}")
