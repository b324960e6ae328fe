/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDLESIM_H
#define IDLESIM_H
#include "idlesim/states.h"
#include "idlesim/trace.h"
#include "idlesim/governor.h"
#include "idlesim/metrics.h"
#include "idlesim/sim.h"
#include "idlesim/sweep.h"
#include "idlesim/run.h"
#include "idlesim/metric_table.h"
#include "idlesim/rfc.h"
#include "idlesim/export.h"
#include "idlesim/regress.h"
#endif
