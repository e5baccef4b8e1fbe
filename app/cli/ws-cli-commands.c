/* The subcommands of warpscope-cli.  Each lives in its own ws-cli-NAME.c;
 * add its prototype and one row to the table. */
#include <glib/gi18n.h>
#include "ws-cli.h"

const WsCliCommand ws_cli_commands[] = {
  { NULL, NULL, NULL }
};
