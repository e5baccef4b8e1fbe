/* ws-instrument-private.h: host-side helpers shared inside core/instrument
 * (not seen by the built-in tools, which use the public SDK only). */
#pragma once

#include "instrument/ws-instrument.h"
#include "instrument/ws-instr-builtins.h"
#include "ptx/ws-ptx.h"

/* The SDK's enums are the host's own values: checked at compile time so a
 * change on either side cannot go unnoticed (ws-instrument.c). */
