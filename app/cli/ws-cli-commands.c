/* The subcommands of warpscope-cli.  Each lives in its own ws-cli-NAME.c;
 * add its prototype and one row to the table. */
#include <glib/gi18n.h>
#include "ws-cli.h"

int ws_cli_cmd_bound (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_build (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_hw (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_measure (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_measurements (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_calibrate (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_model (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_occupancy (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_plugins (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_plot (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_predict (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_profile (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_simulate (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_tbpoint (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_trace (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_tool (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_validate (WsCli *cli, int argc, char **argv);

const WsCliCommand ws_cli_commands[] = {
  { "bound", N_ ("Physical lower time bound of traced launches on a GPU (issue, arithmetic, memory bandwidth)"),
    ws_cli_cmd_bound },
  { "build", N_ ("Build a CUDA program for profiling (nvcc -cudart shared, PTX embedded)"), ws_cli_cmd_build },
  { "calibrate", N_ ("Measure the present GPU with micro-benchmarks; fit lambda_k and lambda_c to measurements"),
    ws_cli_cmd_calibrate },
  { "hw", N_ ("List, show, import and export the hardware catalogue"), ws_cli_cmd_hw },
  { "measure", N_ ("Run a CUDA program on the real GPU and record kernel and copy times (CUPTI)"), ws_cli_cmd_measure },
  { "measurements", N_ ("Measurement sets: import, list, show, export, delete"), ws_cli_cmd_measurements },
  { "model", N_ ("System and application models: list, run (with sweeps), import, export"), ws_cli_cmd_model },
  { "occupancy", N_ ("Theoretical occupancy of a launch on a GPU"), ws_cli_cmd_occupancy },
  { "plugins", N_ ("List predictor plugins and their status"), ws_cli_cmd_plugins },
  { "plot", N_ ("Draw a chart (line, scatter, stacked, heatmap, gantt, tbpoint) to PNG, SVG, PDF or CSV"),
    ws_cli_cmd_plot },
  { "predict", N_ ("Predict kernel time with a predictor plugin"), ws_cli_cmd_predict },
  { "profile", N_ ("Run a CUDA program on the emulator and record a trace"), ws_cli_cmd_profile },
  { "simulate", N_ ("Cycle-level simulation of a trace (optionally with TBPoint or random sampling)"),
    ws_cli_cmd_simulate },
  { "tbpoint", N_ ("TBPoint analyses: launch clusters, homogeneous regions, Markov chain, validation"),
    ws_cli_cmd_tbpoint },
  { "tool", N_ ("Instrumentation tools on the emulator: branch, memdiv, value, faults (seed 003)"), ws_cli_cmd_tool },
  { "trace", N_ ("Inspect a recorded trace (kernels, launches, counters)"), ws_cli_cmd_trace },
  { "validate", N_ ("Compare predictions with published measurements of real GPUs (MAPE per source, benchmark, GPU)"),
    ws_cli_cmd_validate },
  { NULL, NULL, NULL }
};
