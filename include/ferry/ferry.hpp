// ferry: the C++ umbrella header.
#pragma once

#include "ferry/collectives.hpp"
#include "ferry/comm.hpp"
#include "ferry/config.hpp"
#include "ferry/coupler.hpp"
#include "ferry/engine.hpp"
#include "ferry/error.hpp"
#include "ferry/exchange.hpp"
#include "ferry/halo.hpp"
#include "ferry/layout.hpp"
#include "ferry/plan.hpp"
#include "ferry/time_series_buffer.hpp"
