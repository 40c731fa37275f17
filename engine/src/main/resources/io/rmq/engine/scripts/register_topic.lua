--[[
  register_topic: records a topic's definition on first use and reports the recorded one, so that
  every producer and consumer of a topic agrees on its slot amount and type.

  KEYS[1]  topic registry  <prefix>rmq:topics (hash: topic name -> definition)

  ARGV[1]  topic name
  ARGV[2]  definition      "<TYPE>:<slot amount>", e.g. "PRIORITY:16"

  Returns  the recorded definition: ARGV[2] when the topic was new or agrees, the earlier
           definition when it conflicts (the caller reports both)
]]
local registryKey = KEYS[1]
local topic       = ARGV[1]
local definition  = ARGV[2]

if redis.call('HSETNX', registryKey, topic, definition) == 1 then
  return definition
end
return redis.call('HGET', registryKey, topic)
