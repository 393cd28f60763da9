// ferry: the C++ umbrella header.
#pragma once

#include "ferry/comm.hpp"
#include "ferry/config.hpp"
#include "ferry/coupler.hpp"
#include "ferry/engine.hpp"
#include "ferry/error.hpp"
#include "ferry/exchange.hpp"
#include "ferry/layout.hpp"
#include "ferry/plan.hpp"
