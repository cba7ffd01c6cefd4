pub mod fifo;
pub mod qos;
pub mod router;
