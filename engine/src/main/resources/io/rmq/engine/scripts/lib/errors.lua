-- The codes of the errors the scripts reply with, "<code> <detail>"; mirrored by io.rmq.engine.ScriptError.
local ERRORS = {
  SPLIT         = 'RMQ_SPLIT',          -- send.lua: the slot was split by a growth; the detail is the split marker
  BAD_TYPE      = 'RMQ_BAD_TYPE',       -- send.lua: an unknown topic type
  BAD_VALUE     = 'RMQ_BAD_VALUE',      -- send.lua, reschedule.lua, tick.lua, flow_acquire.lua, flow_set.lua: a value that is not a number
  BAD_SELECTION = 'RMQ_BAD_SELECTION',  -- act_on_dead.lua: an unknown selection of dead members; schedule_state.lua: an unknown action; flow_set.lua: an unknown mode or field
}

-- The error reply "<code> <detail>": nothing more runs, and whatever the script wrote so far stays.
local function fail(code, detail)
  return redis.error_reply(code .. ' ' .. tostring(detail))
end
