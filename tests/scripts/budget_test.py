"""scripts/budget.py against hand-made scripts/bench outputs: each budget
line's verdict follows its own input, and a missing input is reported as
not measured rather than judged."""
import csv
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import budget  # noqa: E402

SIZES = (1000, 10000, 100000)


def write_scaling(d, wall_of, events_per_replica=10, rss_kb=80_000, reconciles_of=None):
    """reconciles_of(n): the pool's reconciles; None writes the columns of
    scaling.csv before it had them."""
    extra = ["pool_reconciles"] if reconciles_of else []
    with open(os.path.join(d, "scaling.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["provider", "replicas", "wall_s", "cpu_s", "max_rss_kb", "events", "runs"] + extra)
        for p in ("asg", "test"):
            for n in SIZES:
                counts = [reconciles_of(n)] if reconciles_of else []
                w.writerow([p, n, wall_of(p, n), wall_of(p, n), rss_kb, events_per_replica * n, 3] + counts)


def write_benchmarks(d, name, times_ns):
    """times_ns: {benchmark name: [real_time per repetition]}."""
    rows = []
    for bench, times in times_ns.items():
        for t in times:
            rows.append({"name": bench, "run_name": bench, "run_type": "iteration",
                         "real_time": t, "time_unit": "ns"})
        rows.append({"name": bench + "_median", "run_name": bench, "run_type": "aggregate",
                     "aggregate_name": "median", "real_time": 1.0, "time_unit": "ns"})
    with open(os.path.join(d, name), "w") as f:
        json.dump({"context": {}, "benchmarks": rows}, f)


def queue_times(ours_1m, plain_1m):
    t = {}
    for n, ours, plain in ((1000, 50, 70), (100000, 80, 120), (1000000, ours_1m, plain_1m)):
        t[f"BM_EventQueueHold/{n}/min_warmup_time:0.200"] = ours
        t[f"BM_StdPriorityQueueHold/{n}/min_warmup_time:0.200"] = plain
    return t


def write_sweep(d, seeds, wall):
    with open(os.path.join(d, "sweep.csv"), "w") as f:
        f.write("seeds,jobs,wall_s,user_s,sys_s,max_rss_kb\n")
        f.write(f"{seeds},2,{wall},30,2,100000\n")


def write_many_pools(d, ratios):
    """ratios: {(provider, shape): many / single}, the single pool at 0.7 s."""
    with open(os.path.join(d, "many_pools.csv"), "w") as f:
        f.write("provider,shape,pools,replicas,wall_s,single_wall_s,ratio\n")
        for (p, shape), r in ratios.items():
            pools, each = shape.split("x")
            f.write(f"{p},{shape},{pools},{each},{0.7 * r:.3f},0.700,{r:.2f}\n")


def linear_wall(p, n):
    return 0.7 * n / 10000  # 0.7 s at 10k, 7 s at 100k, N^1.00


def verdicts(d, seconds=300):
    return {label: (shown, v) for label, shown, v in budget.rows_for(d, seconds)}


def find(rows, start):
    hits = [v for label, v in rows.items() if label.startswith(start)]
    assert len(hits) == 1, (start, list(rows))
    return hits[0]


class BudgetTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write_all_met(self):
        write_scaling(self.d, linear_wall)
        write_benchmarks(self.d, "queue.json", {k: [v] * 5 for k, v in queue_times(100, 300).items()})
        write_benchmarks(self.d, "benchmarks.json", {
            "BM_ReconcileSteadyPool/1000": [100e3], "BM_ReconcileSteadyPool/10000": [1.2e6],
            "BM_ReconcileSteadyPool/100000": [2.3e7]})
        write_sweep(self.d, 1000, 22.5)
        write_many_pools(self.d, {("asg", "100x100"): 1.2, ("asg", "1000x10"): 1.4})

    def test_every_line_met(self):
        self.write_all_met()
        rows = verdicts(self.d)
        self.assertEqual({v for _, v in rows.values()}, {"met", "shown"}, rows)
        self.assertEqual(find(rows, "event queue >= 1.5x")[0], "3.00x")
        self.assertEqual(find(rows, "100,000-replica")[0], "asg 7.0 s, test 7.0 s")
        self.assertEqual(find(rows, "1,000 seeds")[0], "22.5 s (1,000 seeds on 2 cores)")

    def test_one_slow_provider_fails_the_100k_line_only(self):
        self.write_all_met()
        write_scaling(self.d, lambda p, n: 20.4 if (p, n) == ("test", 100000) else linear_wall(p, n))
        rows = verdicts(self.d)
        self.assertEqual(find(rows, "100,000-replica"), ("asg 7.0 s, test 20.4 s", "NOT MET"))
        self.assertEqual(find(rows, "10,000-replica scale-up < 1 s")[1], "met")
        self.assertEqual(find(rows, "asg: wall time")[1], "shown")
        self.assertEqual(find(rows, "test: wall time")[1], "shown")

    def test_queue_ratio_is_of_medians_so_one_burst_does_not_decide_it(self):
        self.write_all_met()
        times = {k: [v] * 5 for k, v in queue_times(100, 160).items()}
        times["BM_StdPriorityQueueHold/1000000/min_warmup_time:0.200"] = [160, 150, 100, 170, 155]
        write_benchmarks(self.d, "queue.json", times)
        rows = verdicts(self.d)
        self.assertEqual(find(rows, "event queue >= 1.5x"), ("1.55x", "met"))

    def test_queue_below_goal_at_1m(self):
        self.write_all_met()
        write_benchmarks(self.d, "queue.json", {k: [v] for k, v in queue_times(100, 133).items()})
        rows = verdicts(self.d)
        self.assertEqual(find(rows, "event queue >= 1.5x"), ("1.33x", "NOT MET"))
        self.assertEqual(find(rows, "event queue >= std")[1], "met")

    def test_wall_growing_faster_than_e_log_e_is_shown_not_judged(self):
        self.write_all_met()
        # E log E over 10,000..1,000,000 events fits N^1.09 (9.2e4, 1.15e6, 1.38e7).
        write_scaling(self.d, lambda p, n: 0.7 * (n / 10000) ** 1.3)
        rows = verdicts(self.d)
        self.assertEqual(find(rows, "asg: wall time"), ("N^1.30 against N^1.09", "shown"))
        self.assertEqual(find(rows, "cost no worse than O(E log E)")[1], "met")

    def test_the_curve_line_fails_when_the_queue_grows_faster_than_a_heap(self):
        self.write_all_met()
        # Ours 100 -> 400 ns over 1k..1M (N^0.20); the heap's 100 -> 200 (N^0.10).
        times = {f"BM_EventQueueHold/{n}/min_warmup_time:0.200": [t]
                 for n, t in ((1000, 100), (100000, 252), (1000000, 400))}
        times.update({f"BM_StdPriorityQueueHold/{n}/min_warmup_time:0.200": [t]
                      for n, t in ((1000, 100), (100000, 158), (1000000, 200))})
        write_benchmarks(self.d, "queue.json", times)
        rows = verdicts(self.d)
        self.assertEqual(find(rows, "cost no worse than O(E log E)")[0],
                         "per event N^0.20 against the heap's N^0.10; one reconcile N^1.18")
        self.assertEqual(find(rows, "cost no worse than O(E log E)")[1], "NOT MET")

    def test_reconcile_visits_are_shown_beside_the_curve_and_not_judged(self):
        self.write_all_met()
        # 200, 400, 800 reconciles: visits 2e5, 4e6, 8e7, which fits N^1.30.
        write_scaling(self.d, linear_wall, reconciles_of=lambda n: {1000: 200, 10000: 400, 100000: 800}[n])
        rows = verdicts(self.d)
        self.assertEqual(find(rows, "asg: wall time"),
                         ("N^1.00 against N^1.09 (MachinePool reconciles x N: N^1.30)", "shown"))

    def test_quadratic_reconcile_is_not_met(self):
        self.write_all_met()
        write_benchmarks(self.d, "benchmarks.json", {
            "BM_ReconcileSteadyPool/1000": [1e5], "BM_ReconcileSteadyPool/10000": [1e7],
            "BM_ReconcileSteadyPool/100000": [1e9]})
        shown, v = find(verdicts(self.d), "one reconcile")
        self.assertTrue(shown.startswith("N^2.00"), shown)
        self.assertEqual(v, "NOT MET")

    # Issue 54: the worst shape decides, against one pool of as many replicas.
    def test_many_pools_over_one_and_a_half_times_the_single_pool_is_not_met(self):
        self.write_all_met()
        write_many_pools(self.d, {("asg", "100x100"): 1.2, ("test", "1000x10"): 7.3})
        rows = verdicts(self.d)
        self.assertEqual(find(rows, "100 pools of 100"),
                         ("asg 100x100 1.2x (0.8 s), test 1000x10 7.3x (5.1 s)", "NOT MET"))

    def test_slow_bench_and_sweep(self):
        self.write_all_met()
        write_sweep(self.d, 1000, 61.0)
        rows = verdicts(self.d, seconds=601)
        self.assertEqual(find(rows, "1,000 seeds")[1], "NOT MET")
        self.assertEqual(find(rows, "scripts/bench"), ("10.0 min", "NOT MET"))

    def test_missing_inputs_are_not_measured(self):
        write_sweep(self.d, 200, 5.0)  # a smaller sweep says nothing of the 1,000-seed line
        rows = verdicts(self.d)
        for start in ("event queue >= std", "10,000-replica scale-up < 1 s", "100,000-replica",
                      "one reconcile", "1,000 seeds", "100 pools of 100"):
            self.assertEqual(find(rows, start)[1], "not measured", start)
        self.assertEqual(find(rows, "scripts/bench")[1], "met")

    def test_table_has_one_row_per_line(self):
        self.write_all_met()
        text = budget.render(budget.rows_for(self.d, 300))
        lines = text.splitlines()
        self.assertEqual(lines[0], "| budget (DESIGN.md, issue 11) | measured | verdict |")
        self.assertEqual(len(lines), 2 + len(budget.rows_for(self.d, 300)))
        self.assertTrue(all(line.endswith(("| met |", "| shown |")) for line in lines[2:]), text)


if __name__ == "__main__":
    unittest.main()
