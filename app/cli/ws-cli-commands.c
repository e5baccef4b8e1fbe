/* The subcommands of warpscope-cli.  Each lives in its own ws-cli-NAME.c;
 * add its prototype and one row to the table. */
#include <glib/gi18n.h>
#include "ws-cli.h"

int ws_cli_cmd_occupancy (WsCli *cli, int argc, char **argv);

const WsCliCommand ws_cli_commands[] = {
  { "occupancy", N_("Theoretical occupancy of a launch on a GPU"), ws_cli_cmd_occupancy },
  { NULL, NULL, NULL }
};
