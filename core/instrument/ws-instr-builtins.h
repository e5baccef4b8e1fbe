/* ws-instr-builtins.h: the built-in tools' descriptors.  The tools are
 * handlers written on the public SDK alone (ws-instrument-sdk.h): this
 * header is all they share with the host. */
#pragma once

#include "instrument/ws-instrument-sdk.h"

const WsInstrHandler *ws_instr_branch_handler (void);         /* ws-instr-branch.c (seed 003 §5) */
const WsInstrHandler *ws_instr_memdiv_handler (void);         /* ws-instr-memdiv.c (§6) */
const WsInstrHandler *ws_instr_value_handler (void);          /* ws-instr-value.c (§7) */
const WsInstrHandler *ws_instr_faults_profile_handler (void); /* ws-instr-faults.c (§8) */
const WsInstrHandler *ws_instr_faults_inject_handler (void);  /* ws-instr-faults.c (§8); args: the site */
