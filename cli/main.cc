// mpsim: the command line. Parses flags with CLI11 and hands each subcommand
// to app/commands.h; every usage error exits 2 with one clear message.
#include <CLI/CLI.hpp>
#include <charconv>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app/calibrate/calibrate_command.h"
#include "app/calibrate/import_command.h"
#include "app/commands.h"
#include "app/compare/compare.h"
#include "app/compare/compare_providers.h"
#include "app/huge_pages.h"
#include "app/sweep/sweep_command.h"
#include "app/version.h"
#include "scenario/validate.h"
#include "sim/scenario_schema.h"

namespace {

using mpsim::kExitBadInput;

constexpr const char* kOverlayHelp =
    "merge a partial scenario (spec: {...}) over the scenario's spec, before --set";

// A seed is a uint64 written in decimal; CLI11's own conversion would throw
// out_of_range (an abort) on "-1" or a number past 2^64.
std::string CheckSeed(const std::string& text) {
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return "expected a seed from 0 to 18446744073709551615, got \"" + text + "\"";
  }
  return "";
}

void AddRun(CLI::App& app, mpsim::RunArgs* a, std::string* seed) {
  CLI::App* run = app.add_subcommand("run", "Run one scenario and write its results");
  run->add_option("SCENARIO", a->scenario, "scenario YAML file")->required();
  run->add_option("--seed", *seed, "root seed (default: spec.seed of the scenario)")
      ->type_name("N")
      ->check(CLI::Validator(CheckSeed, "N"));
  run->add_option("--overlay", a->overlay, kOverlayHelp)->type_name("FILE");
  run->add_option("--set", a->overrides,
                  "override a scenario key, e.g. spec.machinePools[0].replicas=500")
      ->type_name("PATH=VALUE");
  run->add_option("--out", a->out_dir, "output directory (default: results/<scenario-name>)");
  run->add_flag("--plot", a->plot, "also write plots (needs matplotlib)");
  run->add_flag("--report", a->report, "also write report.html (one self-contained page)");
  run->add_option("--explain", a->explain_pool, "explain why POOL took as long as it did")
      ->type_name("POOL");
  auto* json =
      run->add_flag("--json", a->json, "print summary.json to stdout instead of the summary");
  auto* quiet = run->add_flag("--quiet", a->quiet, "print nothing on success");
  json->excludes(quiet);
}

void AddSweep(CLI::App& app, mpsim::SweepArgs* a, mpsim::MergeArgs* m) {
  CLI::App* sw = app.add_subcommand("sweep", "Run a scenario over parameter lists and seeds");
  sw->add_option("SCENARIO", a->scenario, "scenario YAML file")->required();
  sw->add_option("--seeds", a->seeds, "seeds per parameter point")
      ->required()
      ->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000}));
  sw->add_option("--overlay", a->overlay, kOverlayHelp)->type_name("FILE");
  sw->add_option("--set", a->sets, "sweep a key over values, e.g. ...replicas=100..1000:100")
      ->type_name("PATH=V1,V2,...");
  sw->add_option("--jobs", a->jobs, "runs at once (default: one per core)")
      ->check(CLI::Range(size_t{1}, size_t{1024}));
  sw->add_option("--shard", a->shard, "run the I-th of N disjoint slices")->type_name("I/N");
  sw->add_option("--out", a->out_dir, "output directory (default: results/<scenario-name>/sweep)");
  CLI::App* merge = app.add_subcommand("merge", "Combine the shards of a sweep");
  merge->add_option("DIR", m->dirs, "shard output directories")->required();
  merge->add_option("--out", m->out_dir,
                    "output directory (default: results/<scenario-name>/sweep)");
}

// DESIGN.md: `compare SCENARIO [--providers ...]` runs one scenario on every
// cloud; `compare A B` (issue 8) compares two finished runs.
void AddCompare(CLI::App& app, std::vector<std::string>* inputs, mpsim::CompareArgs* ab,
                mpsim::CompareProvidersArgs* across, std::string* seed) {
  CLI::App* cmp = app.add_subcommand(
      "compare", "Run one scenario on every cloud side by side, or compare two runs' summaries");
  cmp->add_option("INPUTS", *inputs,
                  "SCENARIO (run it on each provider), or A B (result directories or "
                  "summary.json files)")
      ->required()
      ->expected(1, 2);
  cmp->add_option("--providers", across->providers, "with SCENARIO: the providers to run on")
      ->delimiter(',')
      ->type_name("asg,vmss,mig");
  cmp->add_option("--overlay", across->overlay, std::string("with SCENARIO: ") + kOverlayHelp)
      ->type_name("FILE");
  cmp->add_option("--out", across->out_dir,
                  "with SCENARIO: output directory (default: results/<scenario-name>-compare)");
  cmp->add_option("--seed", *seed, "with SCENARIO: root seed (default: spec.seed)")
      ->type_name("N")
      ->check(CLI::Validator(CheckSeed, "N"));
  cmp->add_flag("--json", ab->json, "print the comparison as JSON");
}

// Issue 53: delays fitted from a real cluster's dumps, and a scenario made from them.
void AddCalibrate(CLI::App& app, mpsim::CalibrateArgs* cal, mpsim::ImportArgs* imp) {
  CLI::App* c = app.add_subcommand(
      "calibrate", "Fit delays from kubectl and cloud CLI JSON dumps into an overlay");
  c->add_option("FILE", cal->files,
                "JSON of kubectl get nodes / machinepools, aws ec2 describe-instances, "
                "az vmss list-instances, gcloud compute instances list")
      ->required();
  c->add_option("--out", cal->out, "the overlay YAML to write")->required()->type_name("OVERLAY");
  c->add_flag("--json", cal->json, "print the report as JSON");
  c->add_flag("--plot", cal->plot, "also write a QQ plot PNG per delay beside the overlay");
  CLI::App* i = app.add_subcommand("import", "Write a scenario from the same dumps");
  i->add_option("FILE", imp->files, "the same JSON dumps as calibrate")->required();
  i->add_option("--out", imp->out, "the scenario YAML to write")->required()->type_name("SCENARIO");
}

int Compare(const std::vector<std::string>& inputs, const std::string& seed, mpsim::CompareArgs* ab,
            mpsim::CompareProvidersArgs* across) {
  if (inputs.size() == 2) {
    if (!across->overlay.empty()) {
      std::cerr << "error: compare: --overlay applies to compare SCENARIO, not to two results\n";
      return kExitBadInput;
    }
    ab->a = inputs[0];
    ab->b = inputs[1];
    return mpsim::CompareCommand(*ab);
  }
  across->scenario = inputs[0];
  across->json = ab->json;
  if (!seed.empty()) across->seed = std::stoull(seed);  // CheckSeed accepted it
  return mpsim::CompareProvidersCommand(*across);
}

// CLI11 answers an unknown command with "A subcommand is required"; say what
// was wrong instead. False (after the message) for a word that is no command.
bool KnownCommand(int argc, char** argv, const CLI::App& app) {
  if (argc < 2 || argv[1][0] == '-') return true;
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  for (const std::string& n : names) {
    if (n == argv[1]) return true;
  }
  std::cerr << "error: unknown command \"" << argv[1] << "\"; expected "
            << mpsim::scenario::OrList(names) << mpsim::scenario::DidYouMean(argv[1], names)
            << "\n";
  return false;
}

int Dispatch(CLI::App& app, mpsim::RunArgs& run, const std::string& seed,
             const std::vector<std::string>& validate_files, const mpsim::CheckArgs& check,
             const mpsim::SweepArgs& sweep, const mpsim::MergeArgs& merge,
             const std::string& report_dir) {
  if (app.got_subcommand("run")) {
    if (!seed.empty()) run.seed = std::stoull(seed);  // CheckSeed accepted it
    return mpsim::RunCommand(run);
  }
  if (app.got_subcommand("validate")) return mpsim::ValidateCommand(validate_files);
  if (app.got_subcommand("report")) return mpsim::ReportCommand(report_dir);
  if (app.got_subcommand("schema")) return mpsim::SchemaCommand();
  if (app.got_subcommand("check")) return mpsim::CheckCommand(check);
  if (app.got_subcommand("sweep")) return mpsim::SweepCommand(sweep);
  if (app.got_subcommand("merge")) return mpsim::MergeCommand(merge);
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  mpsim::BackHeapWithHugePages(size_t{1} << 30);
  CLI::App app{"mpsim: a deterministic simulator of Cluster API MachinePool behaviour"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mpsim " + mpsim::VersionString());

  mpsim::RunArgs run;
  std::string seed;
  AddRun(app, &run, &seed);

  std::vector<std::string> validate_files;
  CLI::App* validate = app.add_subcommand("validate", "Check scenario files without running them");
  validate->add_option("SCENARIO", validate_files, "scenario YAML files")->required();

  mpsim::CheckArgs check;
  CLI::App* chk = app.add_subcommand("check", "Run scenarios and check their expectations");
  chk->add_option("SCENARIO", check.paths, "scenario files or directories")->required();
  chk->add_option("--junit", check.junit, "write JUnit XML to FILE")->type_name("FILE");
  chk->add_option("--seeds", check.seeds, "check each scenario over N seeds")
      ->check(CLI::Range(uint64_t{1}, uint64_t{100000}));
  chk->add_flag("--update-golden", check.update_golden,
                "rewrite X.golden.csv (the timeline at spec.seed) beside each scenario X.yaml");
  chk->add_option("--overlay", check.overlay, kOverlayHelp)->type_name("FILE");
  chk->add_option("--set", check.overrides,
                  "override a key in every scenario, e.g. to try a change")
      ->type_name("PATH=VALUE");

  app.add_subcommand("schema", "Print a JSON Schema of scenario files, for editors");

  std::string report_dir;
  CLI::App* rep = app.add_subcommand("report", "Write DIR/report.html from a run's outputs");
  rep->add_option("DIR", report_dir, "output directory of mpsim run")->required();

  mpsim::CompareArgs compare;
  mpsim::CompareProvidersArgs across;
  std::vector<std::string> compare_inputs;
  std::string compare_seed;
  AddCompare(app, &compare_inputs, &compare, &across, &compare_seed);

  mpsim::SweepArgs sweep;
  mpsim::MergeArgs merge;
  AddSweep(app, &sweep, &merge);

  mpsim::CalibrateArgs calibrate;
  mpsim::ImportArgs import;
  AddCalibrate(app, &calibrate, &import);

  if (!KnownCommand(argc, argv, app)) return kExitBadInput;
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }
  try {
    if (app.got_subcommand("calibrate")) return mpsim::CalibrateCommand(calibrate);
    if (app.got_subcommand("import")) return mpsim::ImportCommand(import);
    if (app.got_subcommand("compare")) {
      return Compare(compare_inputs, compare_seed, &compare, &across);
    }
    return Dispatch(app, run, seed, validate_files, check, sweep, merge, report_dir);
  } catch (const std::exception& e) {
    // Only a bug of ours or the machine (out of memory) gets here: one line, not an abort.
    std::cerr << "error: mpsim stopped: " << e.what() << "\n";
    return kExitBadInput;
  }
}
